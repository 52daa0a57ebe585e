package io.claimguard.testkit;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service under test as a separate JVM, started with {@code java -jar} and the harness's properties as
 * {@code --name=value} arguments. The harness starts the {@code java} launcher of its own runtime directly,
 * without a shell or script in between, so that {@link #kill()} sends SIGKILL to the service's JVM itself.
 * The fault and throughput harnesses and the several-instances test run the jar this way.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * For a service that a test or the fault harness starts, feeds a little and stops: a bounded heap keeps two shared
     * cores usable, and C1 alone (no C2 compiler threads) cuts the CPU a start costs by about 40 % (32-34 s against
     * 19-21 s of CPU from launch to ready, measured on this machine under load). A harness that times the service
     * passes {@link #MEASURED_JVM_OPTIONS} instead, so that it times the JVM a deployment runs.
     */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx512m", "-XX:TieredStopAtLevel=1");

    /** {@link #DEFAULT_JVM_OPTIONS} with a smaller heap, for tests that run several services at once. */
    public static final List<String> SMALL_JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");

    /** The deployed JVM's compilers, for a harness whose figures are the service's speed. */
    public static final List<String> MEASURED_JVM_OPTIONS = List.of("-Xmx512m");

    private static final Duration POLL = Duration.ofMillis(250);
    private static final String GENERATED_KEY = "claimguard.result-signing.generated-key";

    private final List<String> command;
    private final Path logDir;
    private final int managementPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private Path currentLog;
    private int starts;
    private volatile String lastReadiness = "not asked yet";

    public ServiceProcess(Path jar, Map<String, String> properties, Path logDir, int managementPort) {
        this(jar, DEFAULT_JVM_OPTIONS, properties, logDir, managementPort);
    }

    /** @param jvmOptions options for the service's JVM, before {@code -jar}, e.g. {@code -Xmx256m} */
    public ServiceProcess(Path jar, List<String> jvmOptions, Map<String, String> properties, Path logDir,
            int managementPort) {
        this.logDir = logDir;
        this.managementPort = managementPort;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        // the operator whose login the actuator's detail (camelroutes, health components) asks for
        TestOperator.properties().forEach((name, value) -> {
            if (!properties.containsKey(name)) {
                command.add("--" + name + "=" + value);
            }
        });
        // the result-signing key the service generates: in the folder of this service's logs, not in the working directory
        if (!properties.containsKey(GENERATED_KEY)) {
            command.add("--" + GENERATED_KEY + "=" + logDir.resolve("keys").resolve("result-signing.key").toAbsolutePath());
        }
        this.command = List.copyOf(command);
    }

    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the service is already running as pid " + process.pid());
        }
        starts++;
        currentLog = logDir.resolve("service-" + starts + ".log");
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(currentLog.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the service: " + String.join(" ", command), e);
        }
        String executable = process.info().command().orElse("");
        if (!executable.endsWith("/java")) {
            // a wrapper would take the SIGKILL and leave the JVM running
            process.destroyForcibly();
            throw new IllegalStateException("pid " + process.pid() + " is not a JVM but " + executable);
        }
    }

    /** Waits until readiness answers 200 (database, broker and every route up), or fails if the process dies. */
    public void awaitReady(Duration atMost) {
        try {
            await("readiness of service start " + starts).atMost(atMost).pollDelay(Duration.ZERO).pollInterval(POLL)
                    .until(() -> {
                        if (!alive()) {
                            throw new IllegalStateException("the service exited with " + process.exitValue()
                                    + " while starting; last lines of " + currentLog + ":\n" + logTail(40));
                        }
                        HttpResponse<String> readiness = get("/actuator/health/readiness", Duration.ofSeconds(5));
                        lastReadiness = readiness == null ? "no answer" : readiness.statusCode() + " " + readiness.body();
                        return readiness != null && readiness.statusCode() == 200;
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the service was not ready within " + atMost + " (readiness: " + lastReadiness
                    + "); last lines of " + currentLog + ":\n" + logTail(40), e);
        }
    }

    /** SIGKILL, no shutdown hook, no graceful stop: what a crash or the OOM killer does. */
    public synchronized void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM: the graceful stop (inputs in flight finish), then SIGKILL if it takes too long. */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(Duration.ofSeconds(90))) {
            kill();
        }
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(30));
        }
    }

    /** The exit code of the service's JVM, once it has ended. */
    public synchronized int exitCode() {
        return process.exitValue();
    }

    public synchronized long pid() {
        return process.pid();
    }

    public synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    public int starts() {
        return starts;
    }

    public Path currentLog() {
        return currentLog;
    }

    /** GET on the management port as {@link TestOperator}: the status code, or -1 when nothing answered in time. */
    public int status(String path, Duration timeout) {
        HttpResponse<String> response = get(path, timeout);
        return response == null ? -1 : response.statusCode();
    }

    /** GET on the management port: the body of a 200 answer, or null. */
    public String body(String path, Duration timeout) {
        HttpResponse<String> response = get(path, timeout);
        return response != null && response.statusCode() == 200 ? response.body() : null;
    }

    /** Route id to status ({@code Started}, {@code Stopped}, ...), from the actuator; empty while it cannot answer. */
    public Map<String, String> routes() {
        String body = body("/actuator/camelroutes", Duration.ofSeconds(5));
        Map<String, String> routes = new LinkedHashMap<>();
        if (body != null) {
            for (JsonNode route : JSON.readTree(body)) {
                routes.put(route.path("id").asString(), route.path("status").asString());
            }
        }
        return routes;
    }

    /**
     * {@code POST /actuator/camelroutes/{id}/{operation}} ({@code start}, {@code stop}; the service must run with
     * {@code management.endpoint.camelroutes.read-only=false}); the write operation wants a JSON body, even empty.
     * Fails unless the actuator answers 2xx.
     */
    public void routeOperation(String routeId, String operation, Duration timeout) {
        String path = "/actuator/camelroutes/" + routeId + "/" + operation;
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                    .header("Content-Type", "application/json").header("Authorization", TestOperator.basicAuthorization())
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(operation + " of route " + routeId + " got no answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + operation + " of route " + routeId, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(operation + " of route " + routeId + " answered " + response.statusCode() + " "
                    + response.body());
        }
    }

    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(currentLog, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read " + currentLog + ": " + e.getMessage() + ")";
        }
    }

    private HttpResponse<String> get(String path, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Authorization", TestOperator.basicAuthorization()).timeout(timeout).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private boolean awaitExit(Duration atMost) {
        try {
            return process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The one service jar {@code ./mvnw package} builds (not the plain {@code .jar.original}); every harness runs
     * that jar.
     */
    public static Path findJar() {
        Path target = Path.of("target");
        List<Path> jars;
        try (Stream<Path> files = Files.list(target)) {
            jars = files.filter(file -> file.getFileName().toString().matches("claimguard-.*\\.jar")).sorted().toList();
        } catch (IOException e) {
            jars = List.of();
        }
        if (jars.size() != 1) {
            throw new IllegalArgumentException("expected one target/claimguard-*.jar, found " + jars
                    + ": run ./mvnw -B -DskipTests package first, or pass --jar");
        }
        return jars.get(0);
    }
}
