package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.ExternalArtemis;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.TestBrokerUsers;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.StreamMessage;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.activemq.artemis.api.core.ActiveMQSecurityException;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientRequestor;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.api.core.management.ManagementHelper;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The service against a standalone Artemis broker, as an organisation runs one ({@link ExternalArtemis}: the
 * distribution from Maven Central, the queues, address settings and security settings of
 * {@code deploy/artemis/broker.properties}, a login required, one user per ClaimGuard role), with
 * {@code spring.artemis.mode=native}: the service logs in with {@code spring.artemis.user} and {@code .password}. Its own
 * application context, closed after the class, with an inbox of its own. The JMS helpers of {@link ServiceTestSupport}
 * reach the external broker with the login of the role each step plays.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        // as an operator sets it (command line, environment, config file): before the application starts, where it
        // also decides that no embedded broker starts
        properties = "spring.artemis.mode=native")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ExternalBrokerIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Outside {@code WORK}, whose files other tests account for. */
    private static final Path OWN_WORK = temporaryFolder("claimguard-external-broker-");
    /** Where the embedded broker would listen if it started; the shared context's embedded broker uses BROKER_PORT. */
    private static final int EMBEDDED_ACCEPTOR_PORT = FreePort.onLoopback();
    static final ExternalArtemis BROKER = ExternalArtemis.create(OWN_WORK, Map.of(
            "verifier.results", INPUT_QUEUE, "verifier.effective", OUTPUT_QUEUE, "verifier.results.DLQ", DEAD_LETTER_QUEUE));

    @Autowired
    ApplicationContext context;

    /**
     * Hides {@link ServiceTestSupport#serviceProperties} (Spring calls a subclass's property methods before its
     * superclass's, so a superclass's value would win): the shared settings, then this context's own.
     */
    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        // the service's own login (spring.artemis.user and .password) among them
        ServiceTestSupport.serviceProperties(registry);
        registry.add("spring.artemis.broker-url", BROKER::url);
        registry.add("claimguard.file.inbox", () -> OWN_WORK.resolve("inbox").toString());
        registry.add("claimguard.file.outbox", () -> OWN_WORK.resolve("outbox").toString());
        registry.add("claimguard.broker.acceptor-url", () -> "tcp://127.0.0.1:" + EMBEDDED_ACCEPTOR_PORT);
        // sessions buffer messages ahead, as by default
        registry.add("claimguard.jms.consumer-window-size", () -> "1MB");
    }

    @Override
    String brokerUrl() {
        return BROKER.url();
    }

    @Test
    @DisplayName("Scenario: With an external broker no embedded broker starts")
    void noEmbeddedBroker() {
        assertThat(context.getBeanProvider(EmbeddedActiveMQ.class).getIfAvailable()).isNull();
        assertThat(FreePort.listening(EMBEDDED_ACCEPTOR_PORT)).as("the embedded acceptor's port %d", EMBEDDED_ACCEPTOR_PORT).isFalse();
        assertThat(management("/actuator/prometheus").body())
                .containsPattern("claimguard_queue_depth\\{[^}]*queue=\"" + INPUT_QUEUE + "\"} NaN");
    }

    @Test
    @DisplayName("Scenario: Every example envelope sent through the external broker is audited and forwarded")
    void everyExampleIsAuditedAndForwarded() throws Exception {
        EnvelopeReader reader = new EnvelopeReader(Limits.DEFAULTS);
        List<String> requestIds = new ArrayList<>();
        for (ExampleEnvelopes.Example example : ExampleEnvelopes.load(Path.of("examples"))) {
            String requestId = uniqueId("external-" + example.name());
            ObjectNode envelope = (ObjectNode) JSON.readTree(example.json());
            envelope.put("request_id", requestId);
            byte[] bytes = JSON.writeValueAsBytes(envelope);
            sendBytes(bytes, requestId);
            requestIds.add(requestId);

            Message result = receiveResult(requestId);
            assertThat(result).as("result of %s", example.name()).isNotNull();
            String expectedVerdict = Verification.of(reader.read(bytes)).guard().effectiveVerdict().name();
            assertThat(JSON.readTree(text(result)).get("verdict").asString()).as(example.name()).isEqualTo(expectedVerdict);
        }
        for (String requestId : requestIds) {
            assertThat(auditRows(requestId)).as(requestId).hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.claimguard.it.RejectedInputIT#badInputs")
    @DisplayName("Scenario: A rejected message ends on the external broker's dead-letter queue with its exact bytes")
    void rejectedMessageOnTheBrokersDeadLetterQueue(String kind, byte[] payload, String reasonCode) {
        String testCase = uniqueId("external-" + kind);
        // the same bytes may have been dead-lettered by other tests on this database: count this one
        long before = deadLettersOf(reasonCode, payload);
        sendBytes(payload, testCase);

        DeadLetterMessage dead = receiveDeadLetter(testCase);
        assertThat(dead).as("dead-letter copy of " + kind).isNotNull();
        assertThat(dead.body()).isEqualTo(payload);
        assertThat(dead.reason()).startsWith(reasonCode + ": ");
        await().atMost(PATIENCE).until(() -> deadLettersOf(reasonCode, payload) == before + 1);
    }

    @Test
    @DisplayName("Scenario: A JMS message of a type that holds no envelope is dead-lettered by ClaimGuard at once")
    void unsupportedMessageTypesAreDeadLetteredAtOnce() {
        Map<String, Function<jakarta.jms.Session, Message>> kinds = Map.of(
                "map", session -> unchecked(() -> {
                    MapMessage message = session.createMapMessage();
                    message.setString("request_id", "in-a-map");
                    return message;
                }),
                "stream", session -> unchecked(() -> {
                    StreamMessage message = session.createStreamMessage();
                    message.writeString("{\"request_id\": \"in-a-stream\"}");
                    return message;
                }),
                "object", session -> unchecked(() -> session.createObjectMessage(new java.util.ArrayList<>(List.of("x")))),
                "no body", session -> unchecked(session::createMessage));
        String behind = uniqueId("behind-unsupported");
        List<String> testCases = new ArrayList<>();
        long sent = System.nanoTime();
        kinds.forEach((kind, create) -> {
            String testCase = uniqueId("external-" + kind.replace(' ', '-'));
            testCases.add(testCase);
            send(create, testCase);
        });
        sendText(gatekeeperFailedV2(behind), behind);

        for (String testCase : testCases) {
            DeadLetterMessage dead = receiveDeadLetter(testCase);
            assertThat(dead).as(testCase).isNotNull();
            assertThat(dead.reason()).startsWith("message_type.unsupported: a");
        }
        // the broker's own way there, ten rolled-back deliveries with back-off from 1 s, takes minutes
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(10));
        assertThat(receiveResult(behind)).as("the input behind them").isNotNull();
        await().atMost(PATIENCE).until(() -> SQL.queryForObject(
                "SELECT count(*) FROM claimguard.dead_letter WHERE reason_code = 'message_type.unsupported'"
                        + " AND source_ref LIKE 'ID:%'", Long.class) >= testCases.size());
    }

    /**
     * A producer that nobody in this project wrote: Qpid Proton's Python binding (Debian's
     * {@code python3-qpid-proton}), speaking AMQP 1.0 to the broker's acceptor. The broker converts each message for
     * ClaimGuard's core consumer: a string or a data section is an input, a list or a map body is rejected at its
     * first delivery. A map nested in a map is the one body Artemis 2.40 cannot convert at all ("LinkedHashMap is
     * not a valid property type"): the broker drops every core consumer it offers it to, and after its maximum
     * delivery attempts moves it to the dead-letter address itself, without ClaimGuard's reason or a dead_letter row;
     * no core or JMS client can ever receive it, so it is sent last and browsed on the dead-letter queue over AMQP.
     */
    @Test
    @DisplayName("Scenario: AMQP messages from a Python producer are audited or dead-lettered at their first delivery")
    void amqpMessagesFromAPythonProducer(@TempDir Path folder) throws Exception {
        String testCase = uniqueId("amqp");
        String text = testCase + "-text";
        String data = testCase + "-data";
        String withoutId = testCase + "-no-id";
        long sent = System.nanoTime();
        amqp(folder, INPUT_QUEUE, List.of(
                Map.of("test_case", text, "section", "string", "body", passingV1(text), "message_id", "amqp-" + text),
                Map.of("test_case", testCase + "-list", "section", "list",
                        "body", List.of("{\"request_id\": \"in-a-list\"}", 1)),
                Map.of("test_case", data, "section", "data", "body", gatekeeperFailedV2(data), "message_id", "amqp-" + data),
                Map.of("test_case", testCase + "-map", "section", "map", "body", Map.of("request_id", "in-a-map")),
                Map.of("test_case", withoutId, "section", "string", "body", passingV1(withoutId))));

        for (String requestId : List.of(text, data, withoutId)) {
            assertThat(receiveResult(requestId)).as("result of " + requestId).isNotNull();
            assertThat(auditRows(requestId)).as(requestId).singleElement()
                    .satisfies(row -> assertThat(row.get("source_ref")).asString().isNotBlank());
        }
        assertThat(auditRows(withoutId).get(0).get("source_ref")).asString().startsWith("no-message-id:");
        for (String kind : List.of("list", "map")) {
            DeadLetterMessage dead = receiveDeadLetter(testCase + "-" + kind);
            assertThat(dead).as(kind).isNotNull();
            assertThat(dead.reason()).as(kind).startsWith("message_type.unsupported: a");
        }
        // at their first delivery: the broker's own way there, ten rolled-back deliveries with back-off, takes minutes
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(20));

        String nested = testCase + "-nested-map";
        String behind = testCase + "-behind";
        sent = System.nanoTime();
        amqp(folder, INPUT_QUEUE, List.of(
                Map.of("test_case", nested, "section", "map", "body", Map.of("request_id", Map.of("nested", "map"))),
                Map.of("test_case", behind, "section", "string", "body", passingV1(behind), "message_id", "amqp-" + behind)));

        assertThat(receiveResult(behind)).as("the input behind the nested map").isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(20));
        String moved = amqpBrowseDeadLetter(nested);
        assertThat(moved).as("moved by the broker, without ClaimGuard's reason").contains("\"testCase\": \"" + nested + "\"")
                .doesNotContain("ClaimGuardDeadLetterReason");
    }

    private static String amqp(Path folder, String queue, List<Map<String, Object>> messages) throws Exception {
        return sendAmqp(folder, TestBrokerUsers.amqpUrl(BROKER.port(), BrokerRole.PRODUCER), queue, messages);
    }

    /** The dead-letter queue's message of the test case, browsed as an operator (nobody may take from it). */
    private static String amqpBrowseDeadLetter(String testCase) throws Exception {
        return browseAmqp(TestBrokerUsers.amqpUrl(BROKER.port(), BrokerRole.OPERATOR), DEAD_LETTER_QUEUE,
                "testCase = '" + testCase + "'");
    }

    @Test
    @DisplayName("Scenario: A byte-identical message through the external broker makes no second row")
    void identicalMessageMakesNoSecondRow() throws Exception {
        String requestId = uniqueId("external-twice");
        byte[] envelope = utf8(gatekeeperFailedV2(requestId));
        sendBytes(envelope, requestId);
        Message first = receiveResult(requestId);
        sendBytes(envelope, requestId);
        Message second = receiveResult(requestId);

        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(JSON.readTree(text(second)).get("audit_id").asLong())
                .isEqualTo(JSON.readTree(text(first)).get("audit_id").asLong());
        assertThat(auditRows(requestId)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: The external broker killed mid-stream and restarted loses nothing and audits nothing twice")
    void brokerKilledMidStream() throws Exception {
        List<String> requestIds = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String requestId = uniqueId("external-kill-" + i);
            requestIds.add(requestId);
            sendText(gatekeeperFailedV2(requestId), requestId);
        }
        await().atMost(PATIENCE).until(() -> !auditRows(requestIds.get(0)).isEmpty());
        BROKER.kill();
        BROKER.start();

        await().atMost(Duration.ofSeconds(90)).until(() -> requestIds.stream().allMatch(id -> !auditRows(id).isEmpty()));
        for (String requestId : requestIds) {
            assertThat(auditRows(requestId)).as(requestId).hasSize(1);
            assertThat(receiveResult(requestId)).as("result of " + requestId).isNotNull();
        }
    }

    @Test
    @DisplayName("Scenario: While the external broker is down readiness answers DOWN at once, and UP again after it without a restart")
    void readinessFollowsTheBroker() {
        BROKER.stop();
        try {
            await().atMost(PATIENCE).until(() -> management("/actuator/health/readiness").statusCode() == 503);
            long asked = System.nanoTime();
            HttpResponse<String> readiness = management("/actuator/health/readiness");
            Duration answeredIn = Duration.ofNanos(System.nanoTime() - asked);

            assertThat(readiness.statusCode()).isEqualTo(503);
            assertThat(readiness.body()).contains("did not answer within");
            // the broker check gives up after 800 ms; the rest is the database check and the HTTP round trip
            assertThat(answeredIn).isLessThan(Duration.ofSeconds(2));
            assertThat(management("/actuator/health/liveness").statusCode()).isEqualTo(200);
        } finally {
            BROKER.start();
        }

        await().atMost(Duration.ofSeconds(90)).until(() -> management("/actuator/health/readiness").statusCode() == 200);
        String requestId = uniqueId("external-after-outage");
        sendText(gatekeeperFailedV2(requestId), requestId);
        assertThat(receiveResult(requestId)).isNotNull();
        assertThat(auditRows(requestId)).hasSize(1);
    }

    /**
     * The standalone broker with {@code deploy/artemis/broker.properties} and one user per role, made as the README
     * tells operators: a login is required, and each role may do only its work; the operator manages through the
     * management address, with its reply on a temporary queue of its own.
     */
    @Test
    @DisplayName("Scenario: An external broker set up with deploy/artemis gives each role only its permissions")
    void externalBrokerGivesEachRoleOnlyItsPermissions() throws Exception {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(BROKER.url());
                ClientSessionFactory sessions = locator.createSessionFactory()) {
            assertThatThrownBy(sessions::createSession).as("no login").isInstanceOf(ActiveMQSecurityException.class);
            try (ClientSession producer = session(sessions, BrokerRole.PRODUCER);
                    ClientProducer toResults = producer.createProducer(OUTPUT_QUEUE);
                    ClientProducer toManagement = producer.createProducer("activemq.management")) {
                assertThatThrownBy(() -> toResults.send(producer.createMessage(true))).as("producer sending a result")
                        .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("permission='SEND'");
                ClientMessage purge = producer.createMessage(true);
                ManagementHelper.putOperationInvocation(purge, ResourceNames.QUEUE + DEAD_LETTER_QUEUE, "removeAllMessages");
                assertThatThrownBy(() -> toManagement.send(purge)).as("producer managing")
                        .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("permission='MANAGE'");
                assertThatThrownBy(() -> producer.createConsumer(INPUT_QUEUE)).as("producer taking inputs")
                        .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("permission='CONSUME'");
            }
            try (ClientSession consumer = session(sessions, BrokerRole.CONSUMER);
                    ClientProducer toInputs = consumer.createProducer(INPUT_QUEUE)) {
                assertThatThrownBy(() -> toInputs.send(consumer.createMessage(true))).as("consumer sending an input")
                        .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("permission='SEND'");
                assertThatThrownBy(() -> consumer.createConsumer(DEAD_LETTER_QUEUE, true)).as("consumer browsing dead letters")
                        .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("permission='BROWSE'");
            }
            try (ClientSession operator = session(sessions, BrokerRole.OPERATOR);
                    ClientRequestor requestor = new ClientRequestor(operator, "activemq.management")) {
                operator.start();
                ClientMessage count = operator.createMessage(false);
                ManagementHelper.putOperationInvocation(count, ResourceNames.QUEUE + DEAD_LETTER_QUEUE, "countMessages");
                ClientMessage reply = requestor.request(count, PATIENCE.toMillis());
                assertThat(reply).as("the operator's answer").isNotNull();
                assertThat(ManagementHelper.hasOperationSucceeded(reply)).isTrue();
                assertThat(operator.createConsumer(DEAD_LETTER_QUEUE, true)).as("operator browsing dead letters").isNotNull();
            }
        }
        String anonymous = "amqp://127.0.0.1:" + BROKER.port();
        assertThat(attemptAmqp(anonymous, "ANONYMOUS", "connect", INPUT_QUEUE)).contains("\"ok\": false");
        assertThat(attemptAmqp(TestBrokerUsers.amqpUrl(BROKER.port(), BrokerRole.PRODUCER), "PLAIN", "send", OUTPUT_QUEUE))
                .contains("\"ok\": false", "permission='SEND'");
    }

    private static ClientSession session(ClientSessionFactory sessions, BrokerRole role) throws Exception {
        BrokerLogin login = TestBrokerUsers.login(role);
        return sessions.createSession(login.user(), login.password(), false, true, true, false, 0);
    }

    private static long deadLettersOf(String reasonCode, byte[] payload) {
        return SQL.queryForObject(
                "SELECT count(*) FROM claimguard.dead_letter WHERE source = 'jms' AND reason_code = ? AND payload = ?",
                Long.class, reasonCode, payload);
    }

    private interface JmsCall<T> {
        T call() throws Exception;
    }

    private static <T> T unchecked(JmsCall<T> call) {
        try {
            return call.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
