package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.tools.SendEnvelope;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.component.jms.JmsConsumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.AbstractMessageListenerContainer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JmsIntakeIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    CamelContext camel;

    @Test
    @DisplayName("Scenario: A TextMessage is audited and its effective result sent as a TextMessage")
    void textMessageIsAuditedAndForwarded() throws Exception {
        String requestId = uniqueId("jms-text");
        sendText(gatekeeperFailedV2(requestId), requestId);

        Message result = receiveResult(requestId);
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
        JmsTemplate producer = new JmsTemplate(connectionFactory);
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

        Message result = receiveResult(requestId);
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

        SendEnvelope.main(new String[] {"--broker", "tcp://127.0.0.1:" + BROKER_PORT, "--queue", INPUT_QUEUE,
                "--bytes", envelope.toString()});

        assertThat(awaitAuditRow(requestId)).containsEntry("source", "jms").containsEntry("effective_verdict", "PASS");
        assertThat(receiveResult(requestId)).isNotNull();
    }

    @Test
    @DisplayName("Scenario: The forwarded message carries no internal or producer properties")
    void forwardedMessageCarriesNoInternalProperties() throws Exception {
        String requestId = uniqueId("jms-props");
        sendText(passingV1(requestId), requestId);

        Message result = receiveResult(requestId);
        assertThat(result).isNotNull();
        @SuppressWarnings("unchecked")
        List<String> names = Collections.list((java.util.Enumeration<String>) result.getPropertyNames());
        assertThat(names).filteredOn(name -> !name.startsWith("JMSX"))
                .containsExactlyInAnyOrder("ClaimGuardAuditId", "ClaimGuardRequestId", "ClaimGuardVerdict");
        assertThat(result.getStringProperty("ClaimGuardVerdict")).isEqualTo("PASS");
    }

    /**
     * Regression test for a lost result, found by the fault harness (kill -9 while a JMS backlog drained): an
     * input audited, acknowledged and never forwarded. For {@code transacted=true} Camel creates a
     * JmsTransactionManager unless told not to; with it and a cached consumer, Spring's listener container
     * receives on its own transacted session and commits that (the acknowledgement) first, while the result and
     * dead-letter copies go through the manager's separate session, committed after. Without the manager the
     * container exposes its own session to those sends, so that the acknowledgement and the sends are one commit.
     * The crash window between two commits cannot be hit from inside the JVM; the harness hits it.
     */
    @Test
    @DisplayName("The result and dead-letter sends join the transaction that acknowledges the input")
    void sendsJoinTheListenersOwnTransaction() throws Exception {
        JmsConsumer consumer = (JmsConsumer) camel.getRoute("jms-intake").getConsumer();
        AbstractMessageListenerContainer container = consumer.getListenerContainer();

        assertThat(consumer.getEndpoint().getTransactionManager())
                .as("a JMS transaction manager makes the acknowledgement and the sends two transactions").isNull();
        assertThat(container.isSessionTransacted()).isTrue();
        assertThat(container.isExposeListenerSession()).isTrue();
    }
}
