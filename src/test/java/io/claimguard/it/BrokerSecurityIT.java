package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.cli.ExitCodes;
import io.claimguard.testkit.TestBrokerUsers;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.apache.activemq.artemis.api.core.ActiveMQSecurityException;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientRequestor;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.api.core.management.ManagementHelper;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jms.core.JmsTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The embedded broker's security, tried as anyone outside the service would: through its network acceptor, with the
 * Artemis core client, the JMS client and Qpid Proton's AMQP 1.0 client, each login of the {@link TestBrokerUsers}
 * trying what its role may and may not do. Every refusal is the broker's own (Artemis' security exceptions, AMQP
 * {@code unauthorized-access}).
 */
class BrokerSecurityIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Artemis' management address, where management operations are sent as messages. */
    private static final String MANAGEMENT = "activemq.management";

    @Test
    @DisplayName("Scenario: Every protocol of the embedded broker refuses a client without a login or with a wrong password")
    void anonymousAndWrongPasswordsAreRefused() throws Exception {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(brokerUrl());
                ClientSessionFactory sessions = locator.createSessionFactory()) {
            assertThatThrownBy(sessions::createSession).as("core, no login")
                    .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("Username: null");
            BrokerLogin producer = TestBrokerUsers.login(BrokerRole.PRODUCER);
            assertThatThrownBy(() -> sessions.createSession(producer.user(), producer.password() + "x", false, true, true,
                    false, 0)).as("core, wrong password").isInstanceOf(ActiveMQSecurityException.class);
        }
        try (ActiveMQConnectionFactory jms = new ActiveMQConnectionFactory(brokerUrl())) {
            assertThatThrownBy(jms::createConnection).as("JMS, no login").isInstanceOf(JMSSecurityException.class);
        }

        String plain = "amqp://127.0.0.1:" + BROKER_PORT;
        assertRefused(attemptAmqp(plain, "ANONYMOUS", "connect", INPUT_QUEUE), "Authentication failed");
        assertRefused(attemptAmqp(plain, "ANONYMOUS", "send", INPUT_QUEUE), "Authentication failed");
        BrokerLogin producer = TestBrokerUsers.login(BrokerRole.PRODUCER);
        assertRefused(attemptAmqp("amqp://" + producer.user() + ":wrong-" + producer.password() + "@127.0.0.1:"
                + BROKER_PORT, "PLAIN", "connect", INPUT_QUEUE), "Authentication failed");
        assertAllowed(attemptAmqp(TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.PRODUCER), "PLAIN", "connect", INPUT_QUEUE));
    }

    @Test
    @DisplayName("Scenario: A producer may only send to the input queue")
    void producerOnlySendsInputs() throws Exception {
        String requestId = uniqueId("security-producer");
        as(BrokerRole.PRODUCER, session -> {
            sendAudited(session, requestId, gatekeeperFailedV2(requestId));
            assertSendRefused(session, OUTPUT_QUEUE, DEAD_LETTER_QUEUE);
            assertConsumeRefused(session, INPUT_QUEUE, OUTPUT_QUEUE);
            assertBrowseRefused(session, OUTPUT_QUEUE, DEAD_LETTER_QUEUE);
        });
        String amqp = TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.PRODUCER);
        assertRefused(attemptAmqp(amqp, "PLAIN", "send", OUTPUT_QUEUE), "permission='SEND'");
        assertRefused(attemptAmqp(amqp, "PLAIN", "receive", OUTPUT_QUEUE), "permission='CONSUME'");
        assertThat(receiveResult(requestId)).as("the input the producer sent was forwarded").isNotNull();
    }

    @Test
    @DisplayName("Scenario: A consumer may only take and browse the output queue")
    void consumerOnlyReadsResults() throws Exception {
        String requestId = uniqueId("security-consumer");
        sendText(passingV1(requestId), requestId);
        as(BrokerRole.CONSUMER, session -> {
            String selector = "ClaimGuardRequestId = '" + requestId + "'";
            try (QueueBrowser browser = session.createBrowser(session.createQueue(OUTPUT_QUEUE), selector)) {
                await().atMost(PATIENCE).until(() -> browser.getEnumeration().hasMoreElements());
            }
            Message result = session.createConsumer(session.createQueue(OUTPUT_QUEUE), selector).receive(PATIENCE.toMillis());
            assertThat(result).as("taken by the consumer").isNotNull();

            assertSendRefused(session, INPUT_QUEUE, OUTPUT_QUEUE, DEAD_LETTER_QUEUE);
            assertConsumeRefused(session, INPUT_QUEUE, DEAD_LETTER_QUEUE);
            assertBrowseRefused(session, DEAD_LETTER_QUEUE);
        });
        assertRefused(attemptAmqp(TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.CONSUMER), "PLAIN", "send", INPUT_QUEUE),
                "permission='SEND'");
        assertAllowed(attemptAmqp(TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.CONSUMER), "PLAIN", "receive", OUTPUT_QUEUE));
    }

    @Test
    @DisplayName("Scenario: The operator browses the dead-letter queue and re-drives, and takes nothing")
    void operatorBrowsesAndRedrives() throws Exception {
        String rejected = uniqueId("security-operator");
        sendText("{not json " + rejected, rejected);
        assertThat(receiveDeadLetter(rejected)).as("browsed by the operator").isNotNull();
        String requestId = uniqueId("security-redriven");
        as(BrokerRole.OPERATOR, session -> {
            sendAudited(session, requestId, passingV1(requestId));
            assertConsumeRefused(session, DEAD_LETTER_QUEUE, INPUT_QUEUE, OUTPUT_QUEUE);
            assertBrowseRefused(session, OUTPUT_QUEUE, INPUT_QUEUE);
            assertSendRefused(session, OUTPUT_QUEUE, DEAD_LETTER_QUEUE);
        });
        assertThat(receiveDeadLetter(rejected)).as("still on the dead-letter queue").isNotNull();
    }

    /**
     * ClaimGuard's own login, used by its own connections only: the only one that takes inputs and sends results and
     * dead letters, and it cannot produce inputs or read results. Every other login is refused all three.
     */
    @Test
    @DisplayName("Scenario: Only ClaimGuard's own login takes inputs and sends results and dead letters")
    void onlyTheServiceTakesInputsAndSendsResults() throws Exception {
        for (BrokerRole role : List.of(BrokerRole.PRODUCER, BrokerRole.CONSUMER, BrokerRole.OPERATOR)) {
            as(role, session -> {
                assertConsumeRefused(session, INPUT_QUEUE);
                assertSendRefused(session, OUTPUT_QUEUE, DEAD_LETTER_QUEUE);
            });
        }
        as(BrokerRole.SERVICE, session -> {
            assertSendRefused(session, INPUT_QUEUE);
            assertConsumeRefused(session, OUTPUT_QUEUE);
            assertBrowseRefused(session, DEAD_LETTER_QUEUE);
        });
        // and the service, logged in as itself, goes on taking inputs and forwarding them
        String requestId = uniqueId("security-service");
        sendText(gatekeeperFailedV2(requestId), requestId);
        assertThat(receiveResult(requestId)).isNotNull();
    }

    /**
     * A management operation sent as a message to Artemis' management address ({@code removeAllMessages} on the
     * dead-letter queue) is refused to every login but the operator's; the operator's runs and answers on a temporary
     * queue of its own ({@code removeMessages} of this test's messages on the output queue, which the test put there as
     * ClaimGuard).
     */
    @Test
    @DisplayName("Scenario: Only the operator may manage the broker")
    void onlyTheOperatorManages() throws Exception {
        String testCase = uniqueId("security-manage");
        JmsTemplate asService = new JmsTemplate(connectionFactory);
        for (int i = 0; i < 2; i++) {
            asService.send(OUTPUT_QUEUE, session -> {
                TextMessage message = session.createTextMessage("{\"request_id\": \"" + testCase + "\"}");
                message.setStringProperty("testCase", testCase);
                return message;
            });
        }
        String rejected = uniqueId("security-manage-dead");
        sendText("{not json " + rejected, rejected);
        assertThat(receiveDeadLetter(rejected)).isNotNull();
        long deadLetters = depth(DEAD_LETTER_QUEUE);

        for (BrokerRole role : List.of(BrokerRole.PRODUCER, BrokerRole.CONSUMER, BrokerRole.SERVICE)) {
            try (ServerLocator locator = ActiveMQClient.createServerLocator(brokerUrl());
                    ClientSessionFactory sessions = locator.createSessionFactory();
                    ClientSession session = session(sessions, role);
                    ClientProducer producer = session.createProducer(MANAGEMENT)) {
                ClientMessage request = session.createMessage(true);
                ManagementHelper.putOperationInvocation(request, ResourceNames.QUEUE + DEAD_LETTER_QUEUE, "removeAllMessages");
                assertThatThrownBy(() -> producer.send(request)).as(role.key() + " managing")
                        .isInstanceOf(ActiveMQSecurityException.class).hasMessageContaining("permission='MANAGE'");
            }
        }
        assertThat(depth(DEAD_LETTER_QUEUE)).as("nothing removed").isGreaterThanOrEqualTo(deadLetters);
        assertThat(receiveDeadLetter(rejected)).isNotNull();

        try (ServerLocator locator = ActiveMQClient.createServerLocator(brokerUrl());
                ClientSessionFactory sessions = locator.createSessionFactory();
                ClientSession session = session(sessions, BrokerRole.OPERATOR);
                ClientRequestor requestor = new ClientRequestor(session, MANAGEMENT)) {
            session.start();
            ClientMessage request = session.createMessage(false);
            ManagementHelper.putOperationInvocation(request, ResourceNames.QUEUE + OUTPUT_QUEUE, "removeMessages",
                    "testCase = '" + testCase + "'");
            ClientMessage reply = requestor.request(request, PATIENCE.toMillis());
            assertThat(reply).as("the operator's answer").isNotNull();
            assertThat(ManagementHelper.hasOperationSucceeded(reply)).as(String.valueOf(ManagementHelper.getResult(reply)))
                    .isTrue();
            assertThat(((Number) ManagementHelper.getResult(reply)).longValue()).as("messages removed").isEqualTo(2);
        }
        assertThat(new CliRunner().browse(OUTPUT_QUEUE, "testCase = '" + testCase + "'")).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Nobody may create an address or a queue on the embedded broker")
    void nobodyCreatesAddressesOrQueues() throws Exception {
        String unknown = uniqueId("it.nobody");
        for (BrokerRole role : BrokerRole.values()) {
            as(role, session -> {
                // refused by the client, which asks the broker first whether the queue exists, or by the broker
                assertThatThrownBy(() -> sendText(session, unknown, "{}")).as(role.key() + " sending to a new address")
                        .isInstanceOf(JMSException.class);
                assertThatThrownBy(() -> session.createConsumer(session.createQueue(unknown))).as(role.key() + " consuming")
                        .isInstanceOf(JMSException.class);
            });
            try (ServerLocator locator = ActiveMQClient.createServerLocator(brokerUrl());
                    ClientSessionFactory sessions = locator.createSessionFactory();
                    ClientSession session = session(sessions, role)) {
                assertThatThrownBy(() -> session.createQueue(QueueConfiguration.of(unknown).setRoutingType(RoutingType.ANYCAST)
                        .setDurable(true))).as(role.key() + " creating a durable queue").isInstanceOf(ActiveMQSecurityException.class);
                // a second queue on the output address would take half of the results
                assertThatThrownBy(() -> session.createQueue(QueueConfiguration.of(unknown + "-results")
                        .setAddress(OUTPUT_QUEUE).setRoutingType(RoutingType.ANYCAST).setDurable(false).setTemporary(true)))
                        .as(role.key() + " adding a queue to the output address").isInstanceOf(ActiveMQSecurityException.class);
                assertThat(session.addressQuery(SimpleString.of(unknown)).isExists()).isFalse();
                assertThat(session.queueQuery(SimpleString.of(unknown + "-results")).isExists()).isFalse();
            }
        }
    }

    /**
     * The tools, given only the credentials file: each takes the login of the role its work needs, and the role
     * decides what the broker lets it do.
     */
    @Test
    @DisplayName("Scenario: Each tool logs in with the login of the role its work needs")
    void toolsLogInByRole(@TempDir Path folder) throws Exception {
        String requestId = uniqueId("security-tools");
        Path envelope = Files.writeString(folder.resolve("envelope.json"), passingV1(requestId));
        CliRun sent = CliRun.against("send", envelope.toString());
        assertThat(sent.exitCode()).as(sent.toString()).isEqualTo(ExitCodes.OK);

        CliRunner tools = new CliRunner();
        assertThat(tools.browse(OUTPUT_QUEUE, "ClaimGuardRequestId = '" + requestId + "'")).as("as the consumer").hasSize(1);
        CliRun deadLetters = tools.run("browse", DEAD_LETTER_QUEUE, "--max", "1");
        assertThat(deadLetters.exitCode()).as("as the operator: " + deadLetters).isZero();
        CliRun status = tools.run("status", "--json", "--input-queue", INPUT_QUEUE, "--output-queue", OUTPUT_QUEUE,
                "--dead-letter-queue", DEAD_LETTER_QUEUE, "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(),
                "--db-password", DATABASE.password());
        assertThat(JSON.readTree(status.out()).path("queues").path("available").asBoolean()).as("as the operator: " + status)
                .isTrue();
        CliRun consumed = tools.run("consume", "--queue", OUTPUT_QUEUE, "--max", "1", "--wait", "10s",
                "--selector", "ClaimGuardRequestId = '" + requestId + "'");
        assertThat(consumed.lines()).as("as the consumer: " + consumed).singleElement().asString().contains(requestId);

        CliRun wrongRole = tools.run("browse", DEAD_LETTER_QUEUE, "--broker-role", "consumer");
        assertThat(wrongRole.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(wrongRole.err()).contains("refused user " + TestBrokerUsers.login(BrokerRole.CONSUMER).user(),
                "browsing " + DEAD_LETTER_QUEUE, "permission='BROWSE'");
        CliRun takeDeadLetters = tools.run("consume", "--queue", DEAD_LETTER_QUEUE, "--wait", "1s");
        assertThat(takeDeadLetters.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(takeDeadLetters.err()).contains("permission='CONSUME'");
    }

    // ---- helpers

    /** The tools on the test service's broker with only the credentials file, as an operator runs them. */
    private static final class CliRunner {

        CliRun run(String... arguments) {
            List<String> args = new java.util.ArrayList<>(List.of(arguments));
            args.addAll(List.of("--broker", "tcp://127.0.0.1:" + BROKER_PORT, "--broker-credentials", BROKER_CREDENTIALS.toString()));
            if (arguments[0].equals("browse")) {
                args.addAll(List.of("--output-queue", OUTPUT_QUEUE));
            }
            return CliRun.of(args.toArray(String[]::new));
        }

        List<String> browse(String queue, String selector) {
            CliRun run = run("browse", queue, "--selector", selector);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            return run.lines();
        }
    }

    /** What a test does in one JMS session. */
    private interface SessionWork {
        void run(Session session) throws Exception;
    }

    /** Runs the work in a JMS session of a connection (started) with the role's login, through the acceptor. */
    private void as(BrokerRole role, SessionWork work) throws Exception {
        BrokerLogin login = TestBrokerUsers.login(role);
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl(), login.user(), login.password());
                Connection connection = factory.createConnection()) {
            connection.start();
            work.run(connection.createSession(false, Session.AUTO_ACKNOWLEDGE));
        }
    }

    /** Sends the envelope to the input queue in the session and waits until it is audited. */
    private static void sendAudited(Session session, String requestId, String envelope) throws JMSException {
        sendText(session, INPUT_QUEUE, envelope);
        assertThat(awaitAuditRow(requestId)).containsEntry("source", "jms");
    }

    private static ClientSession session(ClientSessionFactory sessions, BrokerRole role) throws Exception {
        BrokerLogin login = TestBrokerUsers.login(role);
        return sessions.createSession(login.user(), login.password(), false, true, true, false, 0);
    }

    private long depth(String queue) throws Exception {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(brokerUrl());
                ClientSessionFactory sessions = locator.createSessionFactory();
                ClientSession session = session(sessions, BrokerRole.OPERATOR)) {
            return session.queueQuery(SimpleString.of(queue)).getMessageCount();
        }
    }

    private static void sendText(Session session, String queue, String text) throws JMSException {
        try (MessageProducer producer = session.createProducer(session.createQueue(queue))) {
            producer.send(session.createTextMessage(text));
        }
    }

    private static void assertSendRefused(Session session, String... queues) {
        for (String queue : queues) {
            assertThatThrownBy(() -> sendText(session, queue, "{}")).as("sending to " + queue)
                    .isInstanceOf(JMSSecurityException.class).hasMessageContaining("permission='SEND'");
        }
    }

    private static void assertConsumeRefused(Session session, String... queues) {
        for (String queue : queues) {
            assertThatThrownBy(() -> session.createConsumer(session.createQueue(queue)).close()).as("consuming " + queue)
                    .isInstanceOf(JMSSecurityException.class).hasMessageContaining("permission='CONSUME'");
        }
    }

    private static void assertBrowseRefused(Session session, String... queues) {
        for (String queue : queues) {
            assertThatThrownBy(() -> {
                try (QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
                    Collections.list(browser.getEnumeration());
                }
            }).as("browsing " + queue).isInstanceOf(JMSSecurityException.class).hasMessageContaining("permission='BROWSE'");
        }
    }

    private static void assertRefused(String attempt, String reason) {
        JsonNode outcome = JSON.readTree(attempt);
        assertThat(outcome.path("ok").asBoolean()).as(attempt).isFalse();
        assertThat(outcome.path("error").asString()).contains(reason);
    }

    private static void assertAllowed(String attempt) {
        assertThat(JSON.readTree(attempt).path("ok").asBoolean()).as(attempt).isTrue();
    }
}
