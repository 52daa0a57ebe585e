package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static io.claimguard.testkit.KafkaClient.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.intake.KafkaIntakeRoute;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.KafkaBroker;
import io.claimguard.testkit.KafkaClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service jar, as it ships, with its Kafka entry on against a Kafka that is not there, that comes later, and with a
 * record whose processing fails every time; each case a service process of its own, with a database of its own.
 */
class KafkaRobustnessIT {

    private static final Duration PATIENCE = Duration.ofSeconds(120);
    /** The WARN lines a service may write in {@link #LOG_WINDOW} while Kafka cannot be reached. */
    private static final int WARN_LINES_BOUND = 10;
    private static final Duration LOG_WINDOW = Duration.ofSeconds(20);

    private static Path work;
    private static KafkaBroker kafka;
    private static KafkaClient client;
    private final List<ServiceProcess> services = new ArrayList<>();
    private final List<TestDatabase> databases = new ArrayList<>();

    @BeforeAll
    static void startKafka() throws IOException {
        work = Files.createTempDirectory("claimguard-kafka-robust-");
        kafka = KafkaBroker.create(work.resolve("kafka"));
        client = new KafkaClient(kafka.bootstrapServers());
    }

    @AfterAll
    static void stopKafka() {
        if (client != null) {
            client.close();
        }
        if (kafka != null) {
            kafka.kill();
        }
    }

    @AfterEach
    void stopServices() {
        services.forEach(ServiceProcess::close);
        databases.forEach(TestDatabase::drop);
    }

    @Test
    @DisplayName("Scenario: A Kafka bootstrap server that cannot be resolved leaves the service running, not ready, with bounded warnings")
    void unresolvableBootstrapServerLeavesTheServiceRunning() throws Exception {
        ServiceProcess service = service("unresolvable", Map.of(
                "claimguard.kafka.bootstrap-servers", "kafka.claimguard.invalid:9092"));
        service.start();

        awaitRunningButNotReady(service);
        assertThat(service.routes()).as("the other entries run").containsEntry("file-intake", "Started");
        assertWarningsBounded(service);
    }

    @Test
    @DisplayName("Scenario: A Kafka that cannot be reached at start leaves the service running, not ready, and it consumes once Kafka is there")
    void unreachableKafkaAtStartThenConsumedWhenItComes() throws Exception {
        String input = "robust.late.in";
        kafka.createTopics(1, input, "robust.late.out", "robust.late.DLT");
        kafka.stop();
        boolean started = false;
        try {
            ServiceProcess service = service("unreachable", Map.of(
                    "claimguard.kafka.input-topic", input,
                    "claimguard.kafka.output-topic", "robust.late.out",
                    "claimguard.kafka.dead-letter-topic", "robust.late.DLT",
                    "claimguard.kafka.group-id", "robust-late",
                    // a short cap, so that the test does not wait long for the next attempt once Kafka is back
                    "claimguard.kafka.reconnect-backoff-max", "5s"));
            service.start();

            awaitRunningButNotReady(service);
            assertWarningsBounded(service);

            kafka.start();
            started = true;
            String requestId = "robust-late-" + System.nanoTime();
            client.produce(input, requestId, utf8(passingV1(requestId)));
            JdbcTemplate sql = new JdbcTemplate(databases.get(databases.size() - 1).dataSource());
            await("the record audited once Kafka is there").atMost(PATIENCE).until(() -> sql.queryForObject(
                    "SELECT count(*) FROM claimguard.verification_audit WHERE request_id = ?", Long.class, requestId) == 1);
            service.awaitReady(PATIENCE);
        } finally {
            if (!started) {
                kafka.start();
            }
        }
    }

    @Test
    @DisplayName("Scenario: A Kafka record whose processing fails every time is dead-lettered as processing_failed after the configured attempts, counted across restarts, and its partition moves on")
    void recordFailingEveryTimeIsDeadLetteredAndItsPartitionMovesOn() throws Exception {
        String input = "robust.poison.in";
        String output = "robust.poison.out";
        String deadLetters = "robust.poison.DLT";
        String group = "robust-poison";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            // the output topic refuses every result (each is larger than this): processing fails every time, after
            // the audit commit, as a result that can never be produced would
            admin.createTopics(List.of(new NewTopic(input, 1, (short) 1), new NewTopic(deadLetters, 1, (short) 1),
                    new NewTopic(output, 1, (short) 1).configs(Map.of("max.message.bytes", "64"))))
                    .all().get(60, TimeUnit.SECONDS);
        }
        ServiceProcess service = service("poison", Map.of(
                "claimguard.kafka.input-topic", input,
                "claimguard.kafka.output-topic", output,
                "claimguard.kafka.dead-letter-topic", deadLetters,
                "claimguard.kafka.group-id", group,
                "claimguard.kafka.max-delivery-attempts", "3",
                "claimguard.kafka.redelivery-delay", "200ms",
                "claimguard.kafka.max-redelivery-delay", "1s"));
        JdbcTemplate sql = new JdbcTemplate(databases.get(databases.size() - 1).dataSource());
        service.start();
        service.awaitReady(PATIENCE);

        String requestId = "robust-poison-" + System.nanoTime();
        byte[] poison = utf8(passingV1(requestId));
        RecordMetadata failing = client.produce(input, requestId, poison);
        // behind it on the same partition: a record that goes only to the dead-letter topic, so it can get through
        RecordMetadata after = client.produce(input, "robust-after", "not json".getBytes(StandardCharsets.UTF_8));

        // counted in PostgreSQL: two deliveries, then the process dies; the count goes on after the restart
        await("two deliveries counted").atMost(PATIENCE).until(() -> deliveries(sql, input, failing.offset()) >= 2);
        service.kill();
        service.start();

        ConsumerRecord<byte[], byte[]> dead = client.readFromBeginning(deadLetters, PATIENCE,
                        records -> records.stream().anyMatch(record -> requestId.equals(KafkaClient.text(record.key()))))
                .stream().filter(record -> requestId.equals(KafkaClient.text(record.key()))).findFirst().orElse(null);
        assertThat(dead).as("the failing record on the dead-letter topic").isNotNull();
        assertThat(dead.value()).as("as it came").isEqualTo(poison);
        assertThat(header(dead, KafkaIntakeRoute.REASON_HEADER)).startsWith("processing_failed: processing failed after 3 attempts");
        String sourceRef = input + "-0@" + failing.offset();
        Map<String, Object> deadLetter = sql.queryForMap(
                "SELECT reason_code, payload FROM claimguard.dead_letter WHERE source_ref = ?", sourceRef);
        assertThat(deadLetter).containsEntry("reason_code", "processing_failed");
        assertThat((byte[]) deadLetter.get("payload")).isEqualTo(poison);
        assertThat(sql.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE request_id = ?",
                Long.class, requestId)).as("audited once, however often it was delivered").isEqualTo(1);

        await("the partition moved on past the record behind it").atMost(PATIENCE).until(() -> {
            OffsetAndMetadata committed = client.committedOffsets(group).get(new TopicPartition(input, 0));
            return committed != null && committed.offset() > after.offset();
        });
        assertThat(sql.queryForObject("SELECT count(*) FROM claimguard.dead_letter WHERE source_ref = ?", Long.class,
                input + "-0@" + after.offset())).isEqualTo(1);
        assertThat(service.starts()).as("the kill was the only restart").isEqualTo(2);
        assertThat(service.alive()).isTrue();
    }

    // ---- helpers

    private ServiceProcess service(String name, Map<String, String> kafkaProperties) throws IOException {
        TestDatabase database = TestDatabase.createSeparate();
        databases.add(database);
        Path folder = Files.createDirectories(work.resolve(name));
        int managementPort = FreePort.onLoopback();
        Map<String, String> properties = new HashMap<>();
        properties.putAll(database.serviceProperties());
        properties.put("claimguard.management.port", Integer.toString(managementPort));
        properties.put("claimguard.file.inbox", folder.resolve("inbox").toString());
        properties.put("claimguard.file.outbox", folder.resolve("outbox").toString());
        properties.put("claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + FreePort.onLoopback());
        properties.put("claimguard.broker.data-directory", folder.resolve("artemis").toString());
        properties.put("claimguard.kafka.enabled", "true");
        properties.put("claimguard.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.putAll(kafkaProperties);
        ServiceProcess service = new ServiceProcess(ServiceProcess.findJar(), ServiceProcess.SMALL_JVM_OPTIONS, properties,
                Files.createDirectories(folder.resolve("logs")), managementPort);
        services.add(service);
        return service;
    }

    /** Alive and answering: liveness 200, readiness 503 (and staying so), the process not restarted. */
    private static void awaitRunningButNotReady(ServiceProcess service) {
        await("liveness 200 while Kafka is away").atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertThat(service.alive()).as("the service runs; its log:\n" + service.logTail(60)).isTrue();
            return service.status("/actuator/health/liveness", Duration.ofSeconds(5)) == 200;
        });
        await("readiness DOWN while Kafka is away").atMost(Duration.ofSeconds(30)).during(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> service.alive() && service.status("/actuator/health/readiness", Duration.ofSeconds(5)) == 503);
    }

    /** The WARN (and ERROR) lines of {@link #LOG_WINDOW} while Kafka stays away: at most {@link #WARN_LINES_BOUND}. */
    private static void assertWarningsBounded(ServiceProcess service) throws IOException {
        long before = warnings(service);
        Instant windowEnd = Instant.now().plus(LOG_WINDOW);
        await("a window of " + LOG_WINDOW).atMost(LOG_WINDOW.plusSeconds(5)).pollInterval(Duration.ofSeconds(1))
                .until(() -> Instant.now().isAfter(windowEnd));
        long during = warnings(service) - before;
        assertThat(during).as("WARN and ERROR lines in %s; log tail:\n%s", LOG_WINDOW, service.logTail(30))
                .isLessThanOrEqualTo(WARN_LINES_BOUND);
        assertThat(service.alive()).isTrue();
    }

    private static long warnings(ServiceProcess service) throws IOException {
        try (var lines = Files.lines(service.currentLog(), StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")).count();
        }
    }

    private static int deliveries(JdbcTemplate sql, String topic, long offset) {
        List<Integer> counts = sql.queryForList("SELECT deliveries FROM claimguard.kafka_delivery"
                + " WHERE topic = ? AND record_offset = ?", Integer.class, topic, offset);
        return counts.isEmpty() ? 0 : counts.get(0);
    }
}
