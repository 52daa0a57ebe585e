# ClaimGuard service image: the Maven build runs inside, so `docker compose up --build` needs nothing else.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
COPY src src
COPY db db
COPY schema schema
RUN mvn -B -q -Dmaven.test.skip=true package && cp target/claimguard-*.jar /claimguard.jar

FROM eclipse-temurin:17-jre
WORKDIR /app
COPY --from=build /claimguard.jar /app/claimguard.jar
# inbox, outbox (and the journal, if the embedded broker is used)
VOLUME /app/data
EXPOSE 8081
# out of memory, the JVM exits rather than run on half-broken: unacknowledged inputs come again after the restart
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/claimguard.jar"]
