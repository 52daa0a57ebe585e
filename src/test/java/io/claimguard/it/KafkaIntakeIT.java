package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static io.claimguard.testkit.KafkaClient.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.audit.Sha256;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import io.claimguard.intake.KafkaIntakeRoute;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.signing.ResultSignatures;
import io.claimguard.signing.ResultVerifier;
import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.KafkaBroker;
import io.claimguard.testkit.KafkaClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kafka entry against a real Kafka broker in KRaft mode ({@link KafkaBroker}: the server from Maven Central in a
 * JVM of its own), with a plain Kafka client as the producer and as the reader of the output and dead-letter topics.
 * Its own application context (with an embedded Artemis broker of its own), closed after the class.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "claimguard.kafka.enabled=true")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class KafkaIntakeIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path OWN_WORK = temporaryFolder("claimguard-kafka-");
    private static final String INPUT_TOPIC = "it.verifier.results";
    private static final String OUTPUT_TOPIC = "it.verifier.effective";
    private static final String DEAD_LETTER_TOPIC = "it.verifier.results.DLT";
    private static final String GROUP = "it-claimguard";
    private static final Duration KAFKA_PATIENCE = Duration.ofSeconds(60);
    /** {@code claimguard.dead-letter.max-stored-bytes} in this context: 1.25 MiB. */
    private static final int KAFKA_MAX_STORED_BYTES = 1_310_720;
    static final KafkaBroker KAFKA = startKafka();
    private static final KafkaClient CLIENT = new KafkaClient(KAFKA.bootstrapServers());

    /**
     * Hides {@link ServiceTestSupport#serviceProperties} (Spring calls a subclass's property methods before its
     * superclass's, so a superclass's value would win): the shared settings, then this context's own.
     */
    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        ServiceTestSupport.serviceProperties(registry);
        registry.add("claimguard.kafka.bootstrap-servers", KAFKA::bootstrapServers);
        registry.add("claimguard.kafka.input-topic", () -> INPUT_TOPIC);
        registry.add("claimguard.kafka.output-topic", () -> OUTPUT_TOPIC);
        registry.add("claimguard.kafka.dead-letter-topic", () -> DEAD_LETTER_TOPIC);
        registry.add("claimguard.kafka.group-id", () -> GROUP);
        registry.add("claimguard.kafka.consumers", () -> "2");
        // an inbox and an embedded broker of its own: the shared context's may still be running
        registry.add("claimguard.file.inbox", () -> OWN_WORK.resolve("inbox").toString());
        registry.add("claimguard.file.outbox", () -> OWN_WORK.resolve("outbox").toString());
        registry.add("spring.artemis.embedded.data-directory", () -> OWN_WORK.resolve("artemis").toString());
        registry.add("claimguard.broker.acceptor-url", () -> "tcp://127.0.0.1:" + FreePort.onLoopback());
        // below the records this test broker takes (about 2 MiB), above the too-large input of RejectedInputIT
        registry.add("claimguard.dead-letter.max-stored-bytes", () -> KAFKA_MAX_STORED_BYTES + "B");
    }

    @AfterAll
    static void stopKafka() {
        CLIENT.close();
        KAFKA.stop();
    }

    @Test
    @DisplayName("Scenario: Every example envelope produced to the Kafka input topic is audited and its result produced")
    void everyExampleIsAuditedAndItsResultProduced() throws Exception {
        EnvelopeReader reader = new EnvelopeReader(Limits.DEFAULTS);
        Map<String, String> expectedVerdicts = new HashMap<>();
        Map<String, RecordMetadata> produced = new HashMap<>();
        for (ExampleEnvelopes.Example example : ExampleEnvelopes.load(Path.of("examples"))) {
            String requestId = uniqueId("kafka-" + example.name());
            ObjectNode envelope = (ObjectNode) JSON.readTree(example.json());
            envelope.put("request_id", requestId);
            byte[] bytes = JSON.writeValueAsBytes(envelope);
            produced.put(requestId, CLIENT.produce(INPUT_TOPIC, requestId, bytes));
            expectedVerdicts.put(requestId, Verification.of(reader.read(bytes)).guard().effectiveVerdict().name());
        }

        Map<String, ConsumerRecord<byte[], byte[]>> results = results(expectedVerdicts.keySet());
        for (Map.Entry<String, String> expected : expectedVerdicts.entrySet()) {
            String requestId = expected.getKey();
            ConsumerRecord<byte[], byte[]> result = results.get(requestId);
            assertThat(result).as("result of %s", requestId).isNotNull();
            JsonNode body = JSON.readTree(result.value());
            assertThat(body.get("verdict").asString()).as(requestId).isEqualTo(expected.getValue());
            assertThat(header(result, ResultProperties.VERDICT)).isEqualTo(expected.getValue());

            Map<String, Object> row = awaitAuditRow(requestId);
            RecordMetadata input = produced.get(requestId);
            assertThat(row).containsEntry("source", "kafka")
                    .containsEntry("source_ref", INPUT_TOPIC + "-" + input.partition() + "@" + input.offset());
            assertThat(header(result, ResultProperties.AUDIT_ID)).isEqualTo(row.get("id").toString());
            assertThat(body.get("audit_id").asLong()).isEqualTo(((Number) row.get("id")).longValue());
        }
        awaitCommittedPast(produced.values());
    }

    @Test
    @DisplayName("Scenario: A Kafka result carries its signature in headers")
    void kafkaResultCarriesItsSignature() throws Exception {
        String requestId = uniqueId("kafka-signed");
        CLIENT.produce(INPUT_TOPIC, requestId, utf8(gatekeeperFailedV2(requestId)));

        ConsumerRecord<byte[], byte[]> result = results(Set.of(requestId)).get(requestId);
        assertThat(result).isNotNull();
        String keyId = header(result, ResultProperties.SIGNATURE_KEY_ID);
        String signature = header(result, ResultProperties.SIGNATURE);
        PublicKey serviceKey = Ed25519Keys.readPublicKey(RESULT_SIGNING_PUBLIC_KEY);
        assertThat(keyId).isEqualTo(ResultSignatures.keyId(serviceKey));
        ResultVerifier verifier = new ResultVerifier(List.of(serviceKey));
        assertThat(verifier.check(result.value(), keyId, signature).verified()).as("signature over the value").isTrue();
        byte[] altered = new String(result.value(), StandardCharsets.UTF_8).replace("\"REJECT\"", "\"PASS\"")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(verifier.check(altered, keyId, signature).reason()).startsWith("signature does not match");
    }

    static Stream<Arguments> badRecords() {
        return Stream.concat(RejectedInputIT.badInputs(), Stream.of(Arguments.of("tombstone", null, "not_json")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecords")
    @DisplayName("Scenario: A rejected Kafka record ends on the dead-letter topic as it came and in dead_letter")
    void rejectedRecordEndsOnTheDeadLetterTopic(String kind, byte[] payload, String reasonCode) {
        String key = uniqueId("kafka-" + kind);
        RecordMetadata input = CLIENT.produce(INPUT_TOPIC, key, payload);
        String sourceRef = INPUT_TOPIC + "-" + input.partition() + "@" + input.offset();

        ConsumerRecord<byte[], byte[]> dead = CLIENT.readFromBeginning(DEAD_LETTER_TOPIC, KAFKA_PATIENCE,
                        records -> records.stream().anyMatch(record -> key.equals(KafkaClient.text(record.key()))))
                .stream().filter(record -> key.equals(KafkaClient.text(record.key()))).findFirst().orElse(null);
        assertThat(dead).as("dead-letter copy of " + kind).isNotNull();
        assertThat(dead.value()).isEqualTo(payload);
        assertThat(header(dead, KafkaIntakeRoute.REASON_HEADER)).startsWith(reasonCode + ": ");

        Map<String, Object> deadLetter = awaitDeadLetter(sourceRef);
        assertThat(deadLetter).containsEntry("source", "kafka").containsEntry("reason_code", reasonCode);
        assertThat((byte[]) deadLetter.get("payload")).isEqualTo(payload == null ? new byte[0] : payload);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE source_ref = ?",
                Long.class, sourceRef)).isZero();
        awaitCommittedPast(List.of(input));
    }

    @Test
    @DisplayName("Scenario: A rejected record larger than the cap keeps its first bytes in dead_letter and goes whole to the dead-letter topic")
    void hugeRecordIsCutInDeadLetterOnly() {
        String key = uniqueId("kafka-huge");
        byte[] payload = new byte[1_835_008];
        Arrays.fill(payload, (byte) 'k');
        RecordMetadata input = CLIENT.produce(INPUT_TOPIC, key, payload);
        String sourceRef = INPUT_TOPIC + "-" + input.partition() + "@" + input.offset();

        ConsumerRecord<byte[], byte[]> dead = CLIENT.readFromBeginning(DEAD_LETTER_TOPIC, KAFKA_PATIENCE,
                        records -> records.stream().anyMatch(record -> key.equals(KafkaClient.text(record.key()))))
                .stream().filter(record -> key.equals(KafkaClient.text(record.key()))).findFirst().orElse(null);
        assertThat(dead).as("dead-letter copy").isNotNull();
        assertThat(dead.value()).as("the dead-letter record, whole").isEqualTo(payload);
        assertThat(header(dead, KafkaIntakeRoute.REASON_HEADER)).startsWith("too_large: input is 1835008 bytes");

        Map<String, Object> deadLetter = awaitDeadLetter(sourceRef);
        assertThat((byte[]) deadLetter.get("payload")).isEqualTo(Arrays.copyOf(payload, KAFKA_MAX_STORED_BYTES));
        assertThat(deadLetter).containsEntry("source", "kafka").containsEntry("reason_code", "too_large")
                .containsEntry("payload_size", (long) payload.length).containsEntry("payload_truncated", true);
        assertThat((byte[]) deadLetter.get("payload_sha256")).isEqualTo(Sha256.of(payload));
        awaitCommittedPast(List.of(input));
    }

    @Test
    @DisplayName("Scenario: A byte-identical Kafka record makes no second audit row; its result is produced again")
    void byteIdenticalRecordMakesNoSecondRow() {
        String requestId = uniqueId("kafka-twice");
        byte[] payload = utf8(gatekeeperFailedV2(requestId));
        RecordMetadata first = CLIENT.produce(INPUT_TOPIC, requestId, payload);
        RecordMetadata second = CLIENT.produce(INPUT_TOPIC, requestId, payload);

        List<ConsumerRecord<byte[], byte[]>> results = CLIENT.readFromBeginning(OUTPUT_TOPIC, KAFKA_PATIENCE,
                records -> resultsOf(records, requestId).size() == 2);
        assertThat(resultsOf(results, requestId)).hasSize(2)
                .extracting(record -> header(record, ResultProperties.AUDIT_ID)).containsOnly(
                        awaitAuditRow(requestId).get("id").toString());
        assertThat(auditRows(requestId)).hasSize(1);
        awaitCommittedPast(List.of(first, second));
    }

    @Test
    @DisplayName("Scenario: While the database is away a Kafka record's offset is not committed, and it is audited once it is back")
    void databaseOutageHoldsTheOffset() {
        String requestId = uniqueId("kafka-outage");
        RecordMetadata input;
        DATABASE_PROXY.cut();
        try {
            input = CLIENT.produce(INPUT_TOPIC, requestId, utf8(passingV1(requestId)));
            await("the offset stays behind the record during the outage").during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !committedPast(input));
        } finally {
            DATABASE_PROXY.restore();
        }
        awaitAuditRow(requestId);
        awaitCommittedPast(List.of(input));
        assertThat(results(Set.of(requestId))).containsKey(requestId);
        assertThat(auditRows(requestId)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: Records wait while Kafka is down and are audited once each when it is back")
    void kafkaKilledAndStartedAgain() {
        List<String> requestIds = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String requestId = uniqueId("kafka-restart-" + i);
            requestIds.add(requestId);
            values.add(utf8(i % 2 == 0 ? passingV1(requestId) : gatekeeperFailedV2(requestId)));
        }
        CLIENT.produceAll(INPUT_TOPIC, values);
        KAFKA.kill();
        KAFKA.start();

        Map<String, ConsumerRecord<byte[], byte[]>> results = results(Set.copyOf(requestIds));
        assertThat(results).containsOnlyKeys(requestIds);
        for (String requestId : requestIds) {
            assertThat(awaitAuditRow(requestId)).as(requestId).isNotNull();
            assertThat(auditRows(requestId)).as(requestId).hasSize(1);
        }
    }

    // ---- helpers

    /** The first result on the output topic for each request id, once all of them are there (or time is up). */
    private static Map<String, ConsumerRecord<byte[], byte[]>> results(Set<String> requestIds) {
        List<ConsumerRecord<byte[], byte[]>> records = CLIENT.readFromBeginning(OUTPUT_TOPIC, KAFKA_PATIENCE,
                read -> read.stream().map(record -> KafkaClient.text(record.key())).collect(Collectors.toSet()).containsAll(requestIds));
        Map<String, ConsumerRecord<byte[], byte[]>> byRequestId = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (requestIds.contains(KafkaClient.text(record.key()))) {
                byRequestId.putIfAbsent(KafkaClient.text(record.key()), record);
            }
        }
        return byRequestId;
    }

    private static List<ConsumerRecord<byte[], byte[]>> resultsOf(List<ConsumerRecord<byte[], byte[]>> records,
            String requestId) {
        return records.stream().filter(record -> requestId.equals(KafkaClient.text(record.key()))).toList();
    }

    private static void awaitCommittedPast(Iterable<RecordMetadata> inputs) {
        for (RecordMetadata input : inputs) {
            await("the group's offset past " + input).atMost(KAFKA_PATIENCE).until(() -> committedPast(input));
        }
    }

    private static boolean committedPast(RecordMetadata input) {
        OffsetAndMetadata committed = CLIENT.committedOffsets(GROUP)
                .get(new TopicPartition(input.topic(), input.partition()));
        return committed != null && committed.offset() > input.offset();
    }

    private static KafkaBroker startKafka() {
        KafkaBroker broker = KafkaBroker.create(OWN_WORK.resolve("kafka"));
        broker.createTopics(3, INPUT_TOPIC, OUTPUT_TOPIC, DEAD_LETTER_TOPIC);
        return broker;
    }
}
