package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerRole;
import io.claimguard.it.OtlpReceiver.ReceivedEvent;
import io.claimguard.it.OtlpReceiver.ReceivedSpan;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.KafkaBroker;
import io.claimguard.testkit.KafkaClient;
import io.claimguard.testkit.TestBrokerUsers;
import io.claimguard.testkit.TestDatabase;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service with {@code claimguard.telemetry} on, exporting by OTLP to a receiver started here ({@link OtlpReceiver}):
 * the input's span continues the producer's trace (JMS and AMQP property, Kafka header, envelope field of a file), and
 * the evaluation events arrive inside it. An application context
 * of its own (telemetry is off in the shared one of {@link ServiceTestSupport}, whose property values a subclass
 * cannot override), closed after the class, with a broker, journal and inbox of its own and the run's database.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class TelemetryIT {

    private static final TestDatabase DATABASE = TestDatabase.get();
    private static final Path WORK = ServiceTestSupport.temporaryFolder("claimguard-telemetry-");
    private static final Path INBOX = WORK.resolve("inbox");
    private static final int BROKER_PORT = FreePort.onLoopback();
    private static final String INPUT_QUEUE = "telemetry.verifier.results";
    private static final String OUTPUT_QUEUE = "telemetry.verifier.effective";
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String KAFKA_INPUT_TOPIC = "telemetry.verifier.results";
    private static final OtlpReceiver RECEIVER = OtlpReceiver.start();
    private static final KafkaBroker KAFKA = startKafka();
    private static final KafkaClient KAFKA_CLIENT = new KafkaClient(KAFKA.bootstrapServers());

    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", DATABASE::jdbcUrl);
        registry.add("spring.datasource.username", DATABASE::username);
        registry.add("spring.datasource.password", DATABASE::password);
        registry.add("claimguard.management.port", () -> "0");
        registry.add("claimguard.instance-id", () -> "it-telemetry");
        registry.add("claimguard.file.inbox", INBOX::toString);
        registry.add("claimguard.file.outbox", () -> WORK.resolve("outbox").toString());
        registry.add("claimguard.file.settle-time", () -> "500ms");
        registry.add("claimguard.broker.data-directory", () -> WORK.resolve("artemis").toString());
        registry.add("claimguard.result-signing.generated-key", () -> WORK.resolve("keys/result-signing.key").toString());
        registry.add("claimguard.broker.acceptor-url", () -> "tcp://127.0.0.1:" + BROKER_PORT);
        registry.add("claimguard.jms.input-queue", () -> INPUT_QUEUE);
        registry.add("claimguard.jms.output-queue", () -> OUTPUT_QUEUE);
        registry.add("claimguard.jms.dead-letter-queue", () -> "telemetry.verifier.results.DLQ");
        registry.add("claimguard.kafka.enabled", () -> "true");
        registry.add("claimguard.kafka.bootstrap-servers", KAFKA::bootstrapServers);
        registry.add("claimguard.kafka.input-topic", () -> KAFKA_INPUT_TOPIC);
        registry.add("claimguard.kafka.output-topic", () -> "telemetry.verifier.effective");
        registry.add("claimguard.kafka.dead-letter-topic", () -> "telemetry.verifier.results.DLT");
        registry.add("claimguard.telemetry.enabled", () -> "true");
        registry.add("claimguard.telemetry.otlp-endpoint", RECEIVER::endpoint);
        TestBrokerUsers.serviceProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @AfterAll
    static void stopReceiverAndKafka() {
        RECEIVER.close();
        KAFKA_CLIENT.close();
        KAFKA.stop();
    }

    @Test
    @DisplayName("Scenario: A JMS input's span and events reach an OTLP receiver")
    void jmsInput() throws Exception {
        String requestId = ServiceTestSupport.uniqueId("telemetry-jms");
        String traceId = randomHex(16);
        String producerSpan = randomHex(8);
        jms(BrokerRole.PRODUCER).send(INPUT_QUEUE, session -> {
            TextMessage message = session.createTextMessage(gatekeeperFailedV2(requestId));
            message.setStringProperty("traceparent", "00-" + traceId + "-" + producerSpan + "-01");
            return message;
        });
        assertThat(receiveResult(requestId)).isNotNull();

        assertContinuedTrace(requestId, traceId, producerSpan, "jms");
    }

    @Test
    @DisplayName("Scenario: An AMQP input's traceparent application property continues the producer's trace")
    void amqpInput(@TempDir Path folder) throws Exception {
        String requestId = ServiceTestSupport.uniqueId("telemetry-amqp");
        String traceId = randomHex(16);
        String producerSpan = randomHex(8);
        ServiceTestSupport.sendAmqp(folder, TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.PRODUCER), INPUT_QUEUE, List.of(Map.of(
                "test_case", requestId, "section", "string", "body", gatekeeperFailedV2(requestId),
                "properties", Map.of("traceparent", "00-" + traceId + "-" + producerSpan + "-01"))));
        assertThat(receiveResult(requestId)).isNotNull();

        assertContinuedTrace(requestId, traceId, producerSpan, "jms");
    }

    @Test
    @DisplayName("Scenario: A Kafka input's traceparent header continues the producer's trace")
    void kafkaInput() {
        String requestId = ServiceTestSupport.uniqueId("telemetry-kafka");
        String traceId = randomHex(16);
        String producerSpan = randomHex(8);
        KAFKA_CLIENT.produce(KAFKA_INPUT_TOPIC, requestId, utf8(gatekeeperFailedV2(requestId)),
                Map.of("traceparent", "00-" + traceId + "-" + producerSpan + "-01"));

        assertContinuedTrace(requestId, traceId, producerSpan, "kafka");
    }

    @Test
    @DisplayName("Scenario: A file's span and events reach an OTLP receiver")
    void fileInput() throws Exception {
        String requestId = ServiceTestSupport.uniqueId("telemetry-file");
        String traceId = randomHex(16);
        String producerSpan = randomHex(8);
        String envelope = gatekeeperFailedV2(requestId).replaceFirst("\\{", "{\"traceparent\": \"00-" + traceId + "-"
                + producerSpan + "-01\", ");
        Files.createDirectories(INBOX);
        Path temporary = Files.write(INBOX.resolve(requestId + ".json.tmp"), utf8(envelope));
        Files.move(temporary, INBOX.resolve(requestId + ".json"), StandardCopyOption.ATOMIC_MOVE);

        assertContinuedTrace(requestId, traceId, producerSpan, "file");
    }

    /** The input's span in the producer's trace, the input's event and its two claim events inside that span. */
    private static void assertContinuedTrace(String requestId, String traceId, String producerSpan, String source) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            ReceivedSpan span = RECEIVER.spans().stream().filter(candidate -> candidate.traceId().equals(traceId))
                    .findFirst().orElseThrow(() -> new AssertionError("no span of trace " + traceId + " yet"));
            assertThat(span.parentSpanId()).isEqualTo(producerSpan);
            assertThat(span.name()).isEqualTo("claimguard process");
            assertThat(span.attributes()).containsEntry("gen_ai.response.id", requestId)
                    .containsEntry("claimguard.source", source).containsEntry("claimguard.outcome", "audited");
            List<ReceivedEvent> events = RECEIVER.events().stream()
                    .filter(event -> event.traceId().equals(traceId)).toList();
            assertThat(events).hasSize(3).allSatisfy(event -> {
                assertThat(event.eventName()).isEqualTo("gen_ai.evaluation.result");
                assertThat(event.spanId()).isEqualTo(span.spanId());
                assertThat(event.attributes()).containsEntry("gen_ai.response.id", requestId);
            });
            assertThat(events.get(0).attributes())
                    .containsEntry("gen_ai.evaluation.name", "claimguard.verdict")
                    .containsEntry("gen_ai.evaluation.score.label", "REJECT")
                    .containsEntry("gen_ai.evaluation.score.value", "0.62")
                    .containsEntry("claimguard.model_verdict", "PASS")
                    .containsEntry("claimguard.downgraded", "true")
                    .containsEntry("claimguard.guard_reasons", "[gatekeeper.invocation_ref]")
                    .containsEntry("claimguard.source", source)
                    .containsKey("claimguard.audit_id");
            assertThat(events.subList(1, 3)).extracting(event -> event.attributes().get("gen_ai.evaluation.score.label"))
                    .containsExactly("direct_observation", "external_unknown");
            assertThat(events.subList(1, 3)).extracting(event -> event.attributes().get("claimguard.claim.ordinal"))
                    .containsExactly("0", "1");
        });
    }

    private Message receiveResult(String requestId) {
        return jms(BrokerRole.CONSUMER).receiveSelected(OUTPUT_QUEUE, "ClaimGuardRequestId = '" + requestId + "'");
    }

    /** A template with the role's login on this service's acceptor. */
    private static JmsTemplate jms(BrokerRole role) {
        JmsTemplate template = new JmsTemplate(TestBrokerUsers.connectionFactory("tcp://127.0.0.1:" + BROKER_PORT, role));
        template.setReceiveTimeout(PATIENCE.toMillis());
        return template;
    }

    private static KafkaBroker startKafka() {
        KafkaBroker broker = KafkaBroker.create(WORK.resolve("kafka"));
        broker.createTopics(1, KAFKA_INPUT_TOPIC, "telemetry.verifier.effective", "telemetry.verifier.results.DLT");
        return broker;
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zeros, which W3C makes invalid
        return HexFormat.of().formatHex(random);
    }
}
