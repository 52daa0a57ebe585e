# ClaimGuard service image: the Maven build runs inside, so `docker compose up --build` needs nothing else.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
COPY src src
COPY db db
COPY schema schema
# the fast-start layout is made below, on the runtime's JVM and at the path it runs from
RUN mvn -B -q -Dmaven.test.skip=true -Dclaimguard.extract.skip=true package && cp target/claimguard-*.jar /claimguard.jar

# The layout bin/claimguard runs, made as the build makes it (bin/claimguard-extract): extracted classes and a
# class-data-sharing archive, which holds the JVM's build and the jars' absolute paths, so it is made on the runtime
# image at /app.
FROM eclipse-temurin:17-jre AS layout
COPY --from=build /claimguard.jar /app/claimguard.jar
COPY bin/claimguard-extract /usr/local/bin/claimguard-extract
RUN sh /usr/local/bin/claimguard-extract /app/claimguard.jar

FROM eclipse-temurin:17-jre
WORKDIR /app
COPY --from=layout /app/claimguard-fast /app/claimguard-fast
# inbox, outbox (and the journal, if the embedded broker is used)
VOLUME /app/data
EXPOSE 8081
# out of memory, the JVM exits rather than run on half-broken: unacknowledged inputs come again after the restart;
# JVM warnings (an archive it cannot use) go to standard error
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", \
    "-XX:SharedArchiveFile=/app/claimguard-fast/claimguard.jsa", "-Xlog:disable", "-Xlog:all=warning:stderr", \
    "-jar", "/app/claimguard-fast/claimguard.jar"]
