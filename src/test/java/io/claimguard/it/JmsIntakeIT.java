package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.broker.BrokerRole;
import io.claimguard.cli.ClaimGuardCli;
import io.claimguard.testkit.TestBrokerUsers;
import jakarta.jms.TextMessage;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.utils.UUIDGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jms.core.JmsTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JmsIntakeIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("Scenario: A TextMessage is audited and its effective result sent as a TextMessage")
    void textMessageIsAuditedAndForwarded() throws Exception {
        String requestId = uniqueId("jms-text");
        sendText(gatekeeperFailedV2(requestId), requestId);

        jakarta.jms.Message result = receiveResult(requestId);
        assertThat(result).isInstanceOf(TextMessage.class);
        Map<String, Object> row = awaitAuditRow(requestId);
        assertThat(row).containsEntry("source", "jms").containsEntry("effective_verdict", "REJECT");
        assertThat((String) row.get("source_ref")).startsWith("ID:");
        JsonNode effective = JSON.readTree(text(result));
        assertThat(effective.get("audit_id").asLong()).isEqualTo(((Number) row.get("id")).longValue());
        assertThat(effective.get("verdict").stringValue()).isEqualTo("REJECT");
    }

    @Test
    @DisplayName("Scenario: A message sent without a message id is audited with a reference of its own")
    void messageWithoutIdGetsAReference() throws Exception {
        String requestId = uniqueId("jms-no-id");
        JmsTemplate producer = jms(BrokerRole.PRODUCER);
        // a producer may ask the provider not to give its messages ids (JMS 2.0, MessageProducer.setDisableMessageID)
        producer.setMessageIdEnabled(false);
        producer.send(INPUT_QUEUE, session -> session.createTextMessage(gatekeeperFailedV2(requestId)));

        Map<String, Object> row = awaitAuditRow(requestId);
        assertThat((String) row.get("source_ref")).startsWith("no-message-id:").hasSizeGreaterThan("no-message-id:".length());
        assertThat(receiveResult(requestId)).isNotNull();
    }

    @Test
    @DisplayName("Scenario: A BytesMessage is audited like a TextMessage")
    void bytesMessageIsAudited() throws Exception {
        String requestId = uniqueId("jms-bytes");
        sendBytes(utf8(passingV1(requestId)), requestId);

        jakarta.jms.Message result = receiveResult(requestId);
        assertThat(result).isNotNull();
        Map<String, Object> row = awaitAuditRow(requestId);
        assertThat(row).containsEntry("model_verdict", "PASS").containsEntry("effective_verdict", "PASS")
                .containsEntry("downgraded", false).containsEntry("projection_mode", "legacy");
        assertThat(JSON.readTree(text(result)).at("/facts_checked/0/fact").stringValue()).isEqualTo("CPU is high");
    }

    @Test
    @DisplayName("Scenario: A producer in another process sends through the embedded broker's acceptor")
    void producerSendsThroughTheAcceptor(@TempDir Path folder) throws Exception {
        String requestId = uniqueId("jms-acceptor");
        Path envelope = Files.writeString(folder.resolve("envelope.json"), passingV1(requestId));

        int exitCode = ClaimGuardCli.execute(new String[] {"send", "--no-wait", "--broker", "tcp://127.0.0.1:" + BROKER_PORT,
                "--broker-credentials", BROKER_CREDENTIALS.toString(), "--queue", INPUT_QUEUE, "--bytes", envelope.toString()},
                new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()));

        assertThat(exitCode).isZero();

        assertThat(awaitAuditRow(requestId)).containsEntry("source", "jms").containsEntry("effective_verdict", "PASS");
        assertThat(receiveResult(requestId)).isNotNull();
    }

    @Test
    @DisplayName("Scenario: The forwarded message carries no internal or producer properties")
    void forwardedMessageCarriesNoInternalProperties() throws Exception {
        String requestId = uniqueId("jms-props");
        sendText(passingV1(requestId), requestId);

        jakarta.jms.Message result = receiveResult(requestId);
        assertThat(result).isNotNull();
        @SuppressWarnings("unchecked")
        List<String> names = Collections.list((java.util.Enumeration<String>) result.getPropertyNames());
        assertThat(names).filteredOn(name -> !name.startsWith("JMSX"))
                .containsExactlyInAnyOrder("ClaimGuardAuditId", "ClaimGuardRequestId", "ClaimGuardVerdict",
                        "ClaimGuardSignatureKeyId", "ClaimGuardSignature");
        assertThat(result.getStringProperty("ClaimGuardVerdict")).isEqualTo("PASS");
    }

    /**
     * A producer and a consumer that nobody in this project wrote (Qpid Proton's Python binding) on the embedded
     * broker's acceptor, over AMQP 1.0, each logging in with SASL PLAIN as its role: a string body and a data section are
     * inputs, a rejected data section ends on the dead-letter queue with its exact bytes, and the result is read back
     * over AMQP.
     */
    @Test
    @DisplayName("Scenario: A Python producer and consumer use the embedded broker over AMQP 1.0")
    void pythonProducerAndConsumerOverAmqp(@TempDir Path folder) throws Exception {
        String text = uniqueId("amqp-embedded-text");
        String data = uniqueId("amqp-embedded-data");
        String rejected = uniqueId("amqp-embedded-rejected");
        sendAmqp(folder, TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.PRODUCER), INPUT_QUEUE, List.of(
                Map.of("test_case", text, "section", "string", "body", gatekeeperFailedV2(text), "message_id", "amqp-" + text),
                Map.of("test_case", data, "section", "data", "body", passingV1(data)),
                Map.of("test_case", rejected, "section", "data", "body", "{not json " + rejected)));

        JsonNode received = JSON.readTree(receiveAmqp(TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.CONSUMER), OUTPUT_QUEUE,
                "ClaimGuardRequestId = '" + text + "'"));
        assertThat(received.get("body_type").stringValue()).as("a TextMessage arrives as an AMQP string").isEqualTo("str");
        JsonNode effective = JSON.readTree(received.get("body").stringValue());
        assertThat(effective.get("verdict").stringValue()).isEqualTo("REJECT");
        assertThat(effective.get("audit_id").asLong()).isEqualTo(((Number) awaitAuditRow(text).get("id")).longValue());
        assertThat(received.at("/properties/ClaimGuardVerdict").stringValue()).isEqualTo("REJECT");
        assertThat(receiveResult(data)).as("the data section's result, read by JMS").isNotNull();
        DeadLetterMessage dead = receiveDeadLetter(rejected);
        assertThat(dead.reason()).startsWith("not_json:");
        assertThat(dead.body()).isEqualTo(utf8("{not json " + rejected));
    }

    /**
     * Messages committed together by their producer reach the intake together: one batch, one transaction. A bad one
     * among them (an undecodable TextMessage, which the JMS client cannot even receive, a MapMessage, bytes that are
     * not JSON) is dead-lettered alone at its first delivery, and the others are audited with it.
     */
    @Test
    @DisplayName("Scenario: A rejected or undecodable input in a batch is dead-lettered alone and the others are audited")
    void badInputInABatchIsDeadLetteredAlone() throws Exception {
        String testCase = uniqueId("jms-batch");
        List<String> requestIds = new ArrayList<>();
        byte[] undecodable = {1, 0, 0, 0, 9, 'h', 'a', 'l', 'f'};
        byte[] notJson = utf8("{not json " + testCase + "}");
        double batchesBefore = batchesTaken();
        try (ServerLocator locator = ActiveMQClient.createServerLocator("tcp://127.0.0.1:" + BROKER_PORT);
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession(TestBrokerUsers.login(BrokerRole.PRODUCER).user(),
                        TestBrokerUsers.login(BrokerRole.PRODUCER).password(), false, false, false, false, 0);
                ClientProducer producer = session.createProducer(INPUT_QUEUE)) {
            for (int i = 0; i < 12; i++) {
                String requestId = testCase + "-" + i;
                requestIds.add(requestId);
                producer.send(coreMessage(session, Message.BYTES_TYPE, utf8(passingV1(requestId)), testCase));
            }
            producer.send(coreMessage(session, Message.TEXT_TYPE, undecodable, testCase + "-undecodable"));
            producer.send(coreMessage(session, Message.MAP_TYPE, new byte[] {0, 0, 0, 0}, testCase + "-map"));
            producer.send(coreMessage(session, Message.BYTES_TYPE, notJson, testCase + "-not-json"));
            session.commit();
        }

        for (String requestId : requestIds) {
            assertThat(awaitAuditRow(requestId)).containsEntry("effective_verdict", "PASS");
            assertThat(receiveResult(requestId)).isNotNull();
        }
        DeadLetterMessage copy = receiveDeadLetter(testCase + "-undecodable");
        assertThat(copy.reason()).startsWith("message_body.undecodable: a TextMessage whose body is not a text");
        assertThat(copy.body()).as("the bytes as they came, in a BytesMessage").isEqualTo(undecodable);
        assertThat(receiveDeadLetter(testCase + "-map").reason()).startsWith("message_type.unsupported: a MapMessage");
        DeadLetterMessage notJsonCopy = receiveDeadLetter(testCase + "-not-json");
        assertThat(notJsonCopy.reason()).startsWith("not_json:");
        assertThat(notJsonCopy.body()).isEqualTo(notJson);
        assertThat(SQL.queryForList("SELECT reason_code, payload FROM claimguard.dead_letter WHERE payload = ?",
                undecodable)).singleElement().satisfies(row -> assertThat(row.get("reason_code"))
                        .isEqualTo("message_body.undecodable"));
        assertThat(batchesTaken() - batchesBefore)
                .as("15 messages committed together are taken in fewer transactions").isLessThan(15);
    }

    /** How many batches the JMS intake has taken so far. */
    private double batchesTaken() {
        JsonNode metric = JSON.readTree(management("/actuator/metrics/claimguard.intake.batch.size").body());
        for (JsonNode measurement : metric.path("measurements")) {
            if ("COUNT".equals(measurement.get("statistic").stringValue())) {
                return measurement.get("value").asDouble();
            }
        }
        return 0;
    }

    /** A message as a core producer makes it, body bytes as given, tagged for the dead-letter queue's selectors. */
    private static ClientMessage coreMessage(ClientSession session, byte type, byte[] body, String testCase) {
        ClientMessage message = session.createMessage(type, true);
        message.setUserID(UUIDGenerator.getInstance().generateUUID());
        message.getBodyBuffer().writeBytes(body);
        message.putStringProperty("testCase", testCase);
        return message;
    }
}
