package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.KafkaBroker;
import io.claimguard.testkit.KafkaClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Instances of the service jar, as it ships, in one Kafka consumer group on one database: one is killed with SIGKILL
 * while they drain and one is added, so that partitions move between them.
 */
class KafkaInstancesIT {

    private static final Duration PATIENCE = Duration.ofSeconds(180);
    private static final int RECORDS = 600;
    private static final int PARTITIONS = 6;
    private static final String INPUT = "instances.in";
    private static final String OUTPUT = "instances.out";
    private static final String GROUP = "instances";
    /** The service's default {@code claimguard.kafka.session-timeout}. */
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    private static Path work;
    private static TestDatabase database;
    private static KafkaBroker kafka;
    private static KafkaClient client;
    private static final Map<String, ServiceProcess> INSTANCES = new LinkedHashMap<>();

    @BeforeAll
    static void startKafkaAndTwoInstances() throws IOException {
        work = Files.createTempDirectory("claimguard-kafka-instances-");
        database = TestDatabase.createSeparate();
        kafka = KafkaBroker.create(work.resolve("kafka"));
        kafka.createTopics(PARTITIONS, INPUT);
        kafka.createTopics(3, OUTPUT, "instances.DLT");
        client = new KafkaClient(kafka.bootstrapServers());
        for (String id : List.of("instance-a", "instance-b")) {
            INSTANCES.put(id, instance(id));
        }
        INSTANCES.values().forEach(ServiceProcess::start);
        INSTANCES.values().forEach(instance -> instance.awaitReady(PATIENCE));
    }

    @AfterAll
    static void stopAll() {
        INSTANCES.values().forEach(ServiceProcess::close);
        if (client != null) {
            client.close();
        }
        if (kafka != null) {
            kafka.kill();
        }
        if (database != null) {
            database.drop();
        }
    }

    @Test
    @DisplayName("Scenario: Two instances in one Kafka consumer group audit each record once, also when one is killed and one added")
    void twoInstancesInOneGroupWithAKill() throws Exception {
        List<String> requestIds = IntStream.range(0, RECORDS).mapToObj(i -> "kafka-instances-" + i).toList();
        client.produceAll(INPUT, requestIds.stream()
                .map(id -> utf8(id.hashCode() % 2 == 0 ? passingV1(id) : gatekeeperFailedV2(id))).toList());
        JdbcTemplate sql = new JdbcTemplate(database.dataSource());

        await().atMost(PATIENCE).until(() -> audited(sql) >= RECORDS / 4);
        Map<TopicPartition, Long> committedAtKill = committed();
        Map<TopicPartition, Long> ends = client.endOffsets(INPUT);
        Instant killedAt = Instant.now();
        INSTANCES.get("instance-a").kill();
        ServiceProcess added = instance("instance-c");
        INSTANCES.put("instance-c", added);
        added.start();

        // every partition that had records left when the instance died is committed again: its new owner took it
        await("every partition moving again").atMost(PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> {
            Map<TopicPartition, Long> now = committed();
            return committedAtKill.entrySet().stream().allMatch(entry -> entry.getValue() >= ends.get(entry.getKey())
                    || now.getOrDefault(entry.getKey(), 0L) > entry.getValue());
        });
        Duration takeover = Duration.between(killedAt, Instant.now());
        System.out.printf("every partition committed again %.1f s after kill -9 (session timeout %s)%n",
                takeover.toMillis() / 1000.0, SESSION_TIMEOUT);
        assertThat(takeover).as("partitions moved on after the kill").isLessThan(SESSION_TIMEOUT.plusSeconds(20));

        await("every record audited").atMost(PATIENCE).until(() -> audited(sql) == RECORDS);
        await("offsets committed to the end").atMost(PATIENCE).until(() -> committed().equals(client.endOffsets(INPUT)));
        assertThat(sql.queryForObject("SELECT count(*) FROM claimguard.verification_audit", Long.class))
                .as("one audit row per record").isEqualTo(RECORDS);
        Set<String> results = client.readFromBeginning(OUTPUT, PATIENCE, records -> records.stream()
                        .map(record -> KafkaClient.text(record.key())).collect(Collectors.toSet()).containsAll(requestIds))
                .stream().map(record -> KafkaClient.text(record.key())).collect(Collectors.toSet());
        assertThat(results).containsAll(requestIds);
        assertThat(sql.queryForObject("SELECT count(*) FROM claimguard.dead_letter", Long.class)).isZero();
        assertThat(INSTANCES.get("instance-b").alive()).isTrue();
        assertThat(added.alive()).isTrue();
    }

    private static long audited(JdbcTemplate sql) {
        return sql.queryForObject("SELECT count(DISTINCT request_id) FROM claimguard.verification_audit", Long.class);
    }

    private static Map<TopicPartition, Long> committed() {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : client.committedOffsets(GROUP).entrySet()) {
            if (entry.getKey().topic().equals(INPUT)) {
                offsets.put(entry.getKey(), entry.getValue().offset());
            }
        }
        return offsets;
    }

    private static ServiceProcess instance(String id) throws IOException {
        Path folder = Files.createDirectories(work.resolve(id));
        int managementPort = FreePort.onLoopback();
        Map<String, String> properties = new HashMap<>();
        properties.put("claimguard.instance-id", id);
        properties.putAll(database.serviceProperties());
        properties.put("claimguard.management.port", Integer.toString(managementPort));
        // each instance its own embedded broker and inbox: only Kafka is shared
        properties.put("claimguard.file.inbox", folder.resolve("inbox").toString());
        properties.put("claimguard.file.outbox", folder.resolve("outbox").toString());
        properties.put("claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + FreePort.onLoopback());
        properties.put("claimguard.broker.data-directory", folder.resolve("artemis").toString());
        properties.put("claimguard.kafka.enabled", "true");
        properties.put("claimguard.kafka.bootstrap-servers", kafka.bootstrapServers());
        properties.put("claimguard.kafka.input-topic", INPUT);
        properties.put("claimguard.kafka.output-topic", OUTPUT);
        properties.put("claimguard.kafka.dead-letter-topic", "instances.DLT");
        properties.put("claimguard.kafka.group-id", GROUP);
        // small batches: a kill finds batches in hand on several partitions
        properties.put("claimguard.kafka.batch-size", "20");
        // one key for every instance, made by whichever starts first
        properties.put("claimguard.result-signing.generated-key", work.resolve("keys/result-signing.key").toString());
        return new ServiceProcess(ServiceProcess.findJar(), ServiceProcess.SMALL_JVM_OPTIONS, properties,
                Files.createDirectories(folder.resolve("logs")), managementPort);
    }
}
