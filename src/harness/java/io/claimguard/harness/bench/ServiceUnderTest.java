package io.claimguard.harness.bench;

import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.KafkaClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestBrokerUsers;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The service jar in a process of its own, as the fault harness runs it ({@link ServiceProcess}): its own
 * database, inbox, outbox and broker journal, free loopback ports. Its two intake routes are held back at start
 * ({@code camel.main.auto-startup-exclude-pattern}), so that a backlog can be queued first and the drain timed
 * from the moment a route is started through the actuator's {@code camelroutes} endpoint.
 */
final class ServiceUnderTest implements AutoCloseable {

    static final String JMS_ROUTE = "jms-intake";
    static final String FILE_ROUTE = "file-intake";
    static final String KAFKA_ROUTE = "kafka-intake";
    /** The service's default topics (and queue names). */
    static final String INPUT_TOPIC = "verifier.results";
    static final String OUTPUT_TOPIC = "verifier.effective";
    static final String DEAD_LETTER_TOPIC = "verifier.results.DLT";
    static final String INPUT_QUEUE = "verifier.results";
    static final String OUTPUT_QUEUE = "verifier.effective";

    private static final Duration START_PATIENCE = Duration.ofMinutes(3);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration ROUTE_OPERATION_TIMEOUT = Duration.ofSeconds(30);

    private final BenchDatabase database;
    private final Connection sql;
    private final Path inbox;
    private final Path outbox;
    private final int managementPort;
    private final ServiceProcess process;
    private final JmsClient jms;
    private final String brokerUrl;
    private final String kafkaBootstrapServers;
    private final List<String> heldRoutes;

    ServiceUnderTest(ThroughputOptions options, Path work, String heap) throws IOException, SQLException {
        this(options, work, heap, null);
    }

    /** @param kafkaBootstrapServers with the Kafka entry on, held back like the others; null without */
    ServiceUnderTest(ThroughputOptions options, Path work, String heap, String kafkaBootstrapServers)
            throws IOException, SQLException {
        this.kafkaBootstrapServers = kafkaBootstrapServers;
        this.heldRoutes = kafkaBootstrapServers == null ? List.of(JMS_ROUTE, FILE_ROUTE)
                : List.of(JMS_ROUTE, FILE_ROUTE, KAFKA_ROUTE);
        this.database = BenchDatabase.empty();
        this.sql = database.connect();
        this.inbox = Files.createDirectories(work.resolve("inbox"));
        this.outbox = Files.createDirectories(work.resolve("outbox"));
        Path journal = Files.createDirectories(work.resolve("artemis"));
        Path logs = Files.createDirectories(work.resolve("logs"));
        this.managementPort = FreePort.onLoopback();
        int brokerPort = FreePort.onLoopback();
        while (brokerPort == managementPort) {
            brokerPort = FreePort.onLoopback();
        }
        this.brokerUrl = "tcp://127.0.0.1:" + brokerPort;
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.database().username());
        properties.put("spring.datasource.password", database.database().password());
        properties.put("claimguard.management.port", Integer.toString(managementPort));
        properties.put("claimguard.broker.acceptor-url", brokerUrl);
        properties.put("claimguard.file.inbox", inbox.toString());
        properties.put("claimguard.file.outbox", outbox.toString());
        properties.put("claimguard.broker.data-directory", journal.toString());
        properties.put("claimguard.result-signing.generated-key", journal.resolveSibling("keys/result-signing.key").toString());
        // the intake routes stay stopped until the harness has queued the backlog and starts them
        properties.put("camel.main.auto-startup-exclude-pattern", String.join(",", heldRoutes));
        // the supervising route controller (on for the Kafka routes) starts every route and ignores that pattern; the
        // harness starts the Kafka intake itself, once Kafka is up
        properties.put("camel.routecontroller.enabled", "false");
        if (kafkaBootstrapServers != null) {
            properties.put("claimguard.kafka.enabled", "true");
            properties.put("claimguard.kafka.bootstrap-servers", kafkaBootstrapServers);
        }
        properties.put("management.endpoint.camelroutes.read-only", "false");
        // the broker's logins: the harness sends as a producer and reads the results as a consumer
        properties.putAll(TestBrokerUsers.serviceProperties());
        // the service's own settings, unless the run tunes them
        properties.putAll(options.serviceProperties());
        List<String> jvmOptions = new ArrayList<>();
        jvmOptions.add("-Xmx" + heap);
        // as in production (Dockerfile): a JVM out of memory is broken, so it exits and the harness sees it at once
        jvmOptions.add("-XX:+ExitOnOutOfMemoryError");
        jvmOptions.addAll(options.serviceJvmOptions());
        this.process = new ServiceProcess(options.jar(), jvmOptions, properties, logs, managementPort);
        this.jms = new JmsClient(brokerUrl, TestBrokerUsers.users());
        Runtime.getRuntime().addShutdownHook(new Thread(process::close, "throughput-harness-cleanup"));
    }

    /**
     * Starts the service and waits until it is up with both intake routes still stopped: liveness, database and
     * broker healthy, every other route started. Readiness stays 503 meanwhile (Camel's health counts the stopped
     * routes), so it cannot be the signal here.
     */
    void startHeld() {
        process.start();
        try {
            await("service start with the intake routes held").atMost(START_PATIENCE).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(250)).until(this::upWithIntakeHeld);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the service did not come up within " + START_PATIENCE + "; last lines of "
                    + process.currentLog() + ":\n" + process.logTail(40), e);
        }
    }

    private boolean upWithIntakeHeld() {
        assertAlive("while starting");
        if (process.status("/actuator/health/liveness", Duration.ofSeconds(5)) != 200
                || process.status("/actuator/health/db", Duration.ofSeconds(5)) != 200
                || process.status("/actuator/health/jms", Duration.ofSeconds(5)) != 200) {
            return false;
        }
        Map<String, String> routes = process.routes();
        if (routes.isEmpty()) {
            return false;
        }
        for (String intake : heldRoutes) {
            if (!"Stopped".equals(routes.get(intake))) {
                throw new IllegalStateException("route " + intake + " is " + routes.get(intake)
                        + " at start: camel.main.auto-startup-exclude-pattern did not hold it back (" + routes + ")");
            }
        }
        return routes.entrySet().stream().filter(route -> !heldRoutes.contains(route.getKey()))
                .allMatch(route -> "Started".equals(route.getValue()));
    }

    /** {@code POST /actuator/camelroutes/{id}/start}. */
    void startRoute(String routeId) {
        process.routeOperation(routeId, "start", ROUTE_OPERATION_TIMEOUT);
    }

    /** Stops an intake route again (its inputs in flight finish first) and waits until the actuator says so. */
    void stopRoute(String routeId) {
        process.routeOperation(routeId, "stop", ROUTE_OPERATION_TIMEOUT);
        await(routeId + " stopped").atMost(START_PATIENCE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250))
                .until(() -> "Stopped".equals(process.routes().get(routeId)));
    }

    /** Readiness 200 once every route runs: the service is healthy as it would be in production. */
    void awaitReady() {
        process.awaitReady(START_PATIENCE);
    }

    /** One poll of a drain: nanoseconds since the drain began, and audit rows committed by then. */
    record Sample(long nanos, long auditRows) {
    }

    /**
     * A timed drain: from the route's start until the last audit row is committed.
     *
     * @param cpu the service's CPU, its JIT compiler threads' share and PostgreSQL's CPU over the drain
     */
    record Drain(double seconds, ProcessProbe.CpuUse cpu, List<Sample> samples) {
    }

    /**
     * Starts {@code routeId} and waits until {@code expectedAuditRows} audit rows are committed, polling every
     * 100 ms; measures the service's CPU over exactly that window. Fails at once if the service dies or an input
     * is dead-lettered (the workload has no bad input), and after {@code atMost} if the rows do not come.
     */
    Drain drain(String routeId, long expectedAuditRows, Duration atMost)
            throws IOException, InterruptedException, SQLException {
        List<Sample> samples = new ArrayList<>();
        long pid = process.pid();
        ProcessProbe.CpuWindow window = ProcessProbe.CpuWindow.start(pid);
        long started = System.nanoTime();
        startRoute(routeId);
        try {
            await(routeId + " drain").atMost(atMost).pollDelay(Duration.ZERO).pollInterval(POLL).until(() -> {
                assertAlive("while draining");
                long[] rows = BenchDatabase.auditAndDeadLetters(sql);
                samples.add(new Sample(System.nanoTime() - started, rows[0]));
                if (rows[1] > 0) {
                    throw new IllegalStateException(rows[1] + " inputs were dead-lettered; every envelope of the "
                            + "workload is valid. Last lines of " + process.currentLog() + ":\n" + process.logTail(40));
                }
                return rows[0] >= expectedAuditRows;
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the " + routeId + " drain did not complete within " + atMost + ": "
                    + auditRows() + " of " + expectedAuditRows + " audit rows", e);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        return new Drain(elapsed.toNanos() / 1e9, window.end(elapsed), List.copyOf(samples));
    }

    /**
     * Gathers the planner's statistics of the service's tables, as autovacuum's analyze would have after the warm-up
     * on a server where it is on (on the build machines it is off). Without them the rollup triggers' join of a
     * batch's rows to {@code verification_audit} is planned as a scan of the whole table per batch, and the cost per
     * input grows with the table (measured: 10 ms of PostgreSQL CPU per input at 90,000 rows).
     */
    void analyze() throws SQLException {
        try (java.sql.Statement statement = sql.createStatement()) {
            statement.execute("ANALYZE");
        }
    }

    long auditRows() throws SQLException {
        return BenchDatabase.auditAndDeadLetters(sql)[0];
    }

    BenchDatabase.Rows rows() throws SQLException {
        return BenchDatabase.rows(sql);
    }

    /**
     * Consumes the output queue until it is quiet: the distinct audit ids of the results on it (the service puts
     * the id in the {@code ClaimGuardAuditId} property).
     */
    Set<Long> drainOutputs(int expected) throws Exception {
        List<JmsClient.Received> received = jms.drain(OUTPUT_QUEUE, Duration.ofSeconds(5), expected * 2 + 1_000,
                Duration.ofMinutes(15));
        Set<Long> auditIds = new HashSet<>();
        for (JmsClient.Received message : received) {
            auditIds.add(message.auditId() != null ? message.auditId() : Bench.auditIdOf(message.body()));
        }
        return auditIds;
    }

    /** The distinct audit ids ({@code ClaimGuardAuditId}) of the results on the Kafka output topic, once there are {@code expected}. */
    Set<Long> kafkaOutputs(int expected) {
        try (KafkaClient client = new KafkaClient(kafkaBootstrapServers)) {
            return auditIds(client.readFromBeginning(OUTPUT_TOPIC, Duration.ofMinutes(5),
                    records -> records.size() >= expected && auditIds(records).size() >= expected));
        }
    }

    private static Set<Long> auditIds(List<ConsumerRecord<byte[], byte[]>> results) {
        Set<Long> auditIds = new HashSet<>();
        results.forEach(result -> auditIds.add(Long.parseLong(KafkaClient.header(result, "ClaimGuardAuditId"))));
        return auditIds;
    }

    long filesIn(String folder) throws IOException {
        Path directory = folder.isEmpty() ? inbox : inbox.resolve(folder);
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.json")) {
            long count = 0;
            for (Path ignored : files) {
                count++;
            }
            return count;
        }
    }

    long outboxFiles() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(outbox, "*.json")) {
            long count = 0;
            for (Path ignored : files) {
                count++;
            }
            return count;
        }
    }

    void assertAlive(String when) {
        if (!process.alive()) {
            throw new IllegalStateException("the service died " + when + "; last lines of " + process.currentLog()
                    + ":\n" + process.logTail(40));
        }
    }

    /** Whether the service logged an OutOfMemoryError (it may survive one, crippled). */
    boolean loggedOutOfMemory() throws IOException {
        try (var lines = Files.lines(process.currentLog())) {
            return lines.anyMatch(line -> line.contains("OutOfMemoryError"));
        }
    }

    JmsClient jms() {
        return jms;
    }

    String brokerUrl() {
        return brokerUrl;
    }

    Path inbox() {
        return inbox;
    }

    long pid() {
        return process.pid();
    }

    String databaseName() {
        return database.name();
    }

    Connection sql() {
        return sql;
    }

    /** SIGTERM and the graceful stop. */
    void stop() {
        process.stop();
    }

    @Override
    public void close() throws SQLException {
        process.close();
        sql.close();
        database.close();
    }
}
