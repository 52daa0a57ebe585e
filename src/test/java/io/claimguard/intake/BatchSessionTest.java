package io.claimguard.intake;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.claimguard.domain.RejectionReason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientConsumer;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.reader.TextMessageUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The batch session and the message reader against a real (in-VM) Artemis broker. */
class BatchSessionTest {

    private static final Duration BATCH_TIMEOUT = Duration.ofMillis(200);
    private static EmbeddedActiveMQ broker;
    private static ServerLocator locator;

    private String input;
    private String output;

    @BeforeAll
    static void startBroker() throws Exception {
        // Artemis logs every message's way through it at INFO otherwise (the service sets the same in application.yml)
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.apache.activemq.audit")).setLevel(Level.WARN);
        broker = new EmbeddedActiveMQ().setConfiguration(new ConfigurationImpl()
                .setPersistenceEnabled(false)
                .setSecurityEnabled(false)
                .addAcceptorConfiguration("in-vm", "vm://7"));
        broker.start();
        locator = ActiveMQClient.createServerLocator("vm://7");
    }

    @AfterAll
    static void stopBroker() throws Exception {
        locator.close();
        broker.stop();
    }

    @BeforeEach
    void queues() throws Exception {
        input = "batch-test-in-" + UUID.randomUUID();
        output = "batch-test-out-" + UUID.randomUUID();
        for (String queue : List.of(input, output)) {
            broker.getActiveMQServer().createQueue(new QueueConfiguration(queue).setRoutingType(RoutingType.ANYCAST));
        }
    }

    @Test
    @DisplayName("Scenario: A batch's sends and its acknowledgement are one transaction")
    void sendsAndAcknowledgementCommitTogether() throws Exception {
        sendTexts(input, "a", "b", "c");

        try (BatchSession session = open(10)) {
            List<BatchMessage> batch = session.receive(10, BATCH_TIMEOUT);
            assertThat(batch).hasSize(3);
            for (BatchMessage message : batch) {
                session.sendText(output, "result of " + new String(message.payload(), StandardCharsets.UTF_8),
                        Map.of("ClaimGuardAuditId", 7L));
            }
            session.rollback();
            assertThat(count(output)).as("nothing sent by a batch that rolled back").isZero();

            List<BatchMessage> again = session.receive(10, BATCH_TIMEOUT);
            assertThat(again).extracting(message -> message.message().getDeliveryCount()).containsOnly(2);
            for (BatchMessage message : again) {
                session.sendText(output, "result of " + new String(message.payload(), StandardCharsets.UTF_8),
                        Map.of("ClaimGuardAuditId", 7L));
            }
            session.commit();
        }

        assertThat(count(input)).isZero();
        assertThat(receiveTexts(output)).containsExactlyInAnyOrder("result of a", "result of b", "result of c");
    }

    @Test
    @DisplayName("Scenario: A batch left by a process that died comes back with its delivery count raised")
    void abandonedBatchIsRedeliveredWithACount() throws Exception {
        sendTexts(input, "x", "y");

        // a short call timeout: closing a session whose connection is dead waits that long for an answer
        try (ServerLocator impatient = ActiveMQClient.createServerLocator("vm://7?callTimeout=500")) {
            BatchSession dying = BatchSession.open(impatient, null, null, settings(10));
            assertThat(dying.receive(10, BATCH_TIMEOUT)).hasSize(2);
            // no commit, no rollback: the broker finds the connection gone, as after kill -9
            for (var connection : broker.getActiveMQServer().getRemotingService().getConnections()) {
                connection.fail(new ActiveMQException("the consumer's process died"));
            }
            dying.close();
        }

        try (BatchSession next = open(10)) {
            List<BatchMessage> batch = next.receive(10, BATCH_TIMEOUT);
            assertThat(batch).extracting(message -> message.message().getDeliveryCount()).containsOnly(2);
            next.commit();
        }
    }

    @Test
    @DisplayName("Scenario: A batch holds at most batch-size messages")
    void batchesAreCapped() throws Exception {
        sendTexts(input, "1", "2", "3", "4", "5", "6", "7", "8", "9", "10");

        List<Integer> sizes = new ArrayList<>();
        try (BatchSession session = open(4)) {
            for (List<BatchMessage> batch = session.receive(4, BATCH_TIMEOUT); !batch.isEmpty();
                    batch = session.receive(4, BATCH_TIMEOUT)) {
                sizes.add(batch.size());
                session.commit();
            }
        }

        assertThat(sizes).containsExactly(4, 4, 2);
    }

    @Test
    @DisplayName("Scenario: A TextMessage whose body cannot be decoded is read as a rejection with its bytes")
    void undecodableTextIsARejection() throws Exception {
        byte[] garbage = {1, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 'n', 'o'};
        send(input, Message.TEXT_TYPE, garbage);
        sendTexts(input, "{\"fine\":true}");
        send(input, Message.MAP_TYPE, new byte[] {0, 0, 0, 0});

        try (BatchSession session = open(10)) {
            List<BatchMessage> batch = session.receive(10, BATCH_TIMEOUT);
            assertThat(batch).hasSize(3);

            BatchMessage undecodable = batch.get(0);
            assertThat(undecodable.rejection().reason()).isEqualTo(RejectionReason.MESSAGE_BODY_UNDECODABLE);
            assertThat(undecodable.rejection().detail()).contains("claims 2147483647 bytes of UTF-16 text where 2 follow");
            assertThat(undecodable.rawBody()).isEqualTo(garbage);
            assertThat(undecodable.payload()).isEqualTo(garbage);

            assertThat(batch.get(1).rejection()).isNull();
            assertThat(new String(batch.get(1).payload(), StandardCharsets.UTF_8)).isEqualTo("{\"fine\":true}");
            assertThat(batch.get(1).sourceRef()).startsWith("ID:");

            assertThat(batch.get(2).rejection().reason()).isEqualTo(RejectionReason.MESSAGE_TYPE_UNSUPPORTED);
            assertThat(batch.get(2).rejection().detail()).startsWith("a MapMessage carries no envelope");

            // the dead-letter copy is the message as it came, body byte for byte
            session.sendCopy(output, undecodable, "ClaimGuardDeadLetterReason", "message_body.undecodable: test");
            session.commit();
        }
        try (ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession()) {
            session.start();
            ClientConsumer consumer = session.createConsumer(output);
            ClientMessage copy = consumer.receive(5_000);
            assertThat(copy.getType()).as("a BytesMessage, which a JMS client can receive").isEqualTo(Message.BYTES_TYPE);
            byte[] body = new byte[copy.getReadOnlyBodyBuffer().readableBytes()];
            copy.getReadOnlyBodyBuffer().readBytes(body);
            assertThat(body).isEqualTo(garbage);
            assertThat(copy.getStringProperty("ClaimGuardDeadLetterReason")).isEqualTo("message_body.undecodable: test");
            assertThat(copy.getStringProperty("producerTag")).isEqualTo("tagged");
        }
    }

    @Test
    @DisplayName("Scenario: A message sent without an id gets the broker's id as its reference")
    void messageWithoutIdIsReferencedByTheBrokersId() throws Exception {
        try (ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession();
                ClientProducer producer = session.createProducer(input)) {
            ClientMessage message = session.createMessage(Message.BYTES_TYPE, true);
            message.getBodyBuffer().writeBytes("{}".getBytes(StandardCharsets.UTF_8));
            producer.send(message);
        }

        try (BatchSession session = open(10)) {
            List<BatchMessage> batch = session.receive(10, BATCH_TIMEOUT);
            assertThat(batch.get(0).sourceRef()).isEqualTo("no-message-id:" + batch.get(0).message().getMessageID());
            session.commit();
        }
    }

    private BatchSession open(int batchSize) throws Exception {
        return BatchSession.open(locator, null, null, settings(batchSize));
    }

    private BatchSettings settings(int batchSize) {
        return new BatchSettings(input, 1, batchSize, BATCH_TIMEOUT, 1 << 20, Duration.ofSeconds(1));
    }

    private void sendTexts(String queue, String... texts) throws Exception {
        try (ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession();
                ClientProducer producer = session.createProducer(queue)) {
            for (String text : texts) {
                ClientMessage message = session.createMessage(Message.TEXT_TYPE, true);
                message.setUserID(org.apache.activemq.artemis.utils.UUIDGenerator.getInstance().generateUUID());
                TextMessageUtil.writeBodyText(message.getBodyBuffer(), SimpleString.of(text));
                producer.send(message);
            }
        }
    }

    private void send(String queue, byte type, byte[] body) throws Exception {
        try (ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession();
                ClientProducer producer = session.createProducer(queue)) {
            ClientMessage message = session.createMessage(type, true);
            message.getBodyBuffer().writeBytes(body);
            message.putStringProperty("producerTag", "tagged");
            producer.send(message);
        }
    }

    private List<String> receiveTexts(String queue) throws Exception {
        List<String> texts = new ArrayList<>();
        try (ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession()) {
            session.start();
            ClientConsumer consumer = session.createConsumer(queue);
            for (ClientMessage message = consumer.receive(1_000); message != null; message = consumer.receive(200)) {
                message.acknowledge();
                texts.add(TextMessageUtil.readBodyText(message.getBodyBuffer()).toString());
            }
        }
        return texts;
    }

    private long count(String queue) throws Exception {
        return broker.getActiveMQServer().locateQueue(queue).getMessageCount();
    }
}
