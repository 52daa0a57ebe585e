package io.claimguard.testkit;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** The harness's side of the service's embedded broker, reached like any producer: through its TCP acceptor. */
public final class JmsClient {

    /** Persistent messages sent per local transaction: durable, without one journal sync per message. */
    private static final int SEND_BATCH = 100;

    private final String brokerUrl;

    public JmsClient(String brokerUrl) {
        this.brokerUrl = brokerUrl;
    }

    /** A message as read from a queue: its body's bytes, and the audit id property where it has one. */
    public record Received(byte[] body, Long auditId) {
    }

    public void send(String queue, List<HarnessInput> inputs) throws JMSException {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                MessageProducer producer = session.createProducer(session.createQueue(queue))) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            int inBatch = 0;
            for (HarnessInput input : inputs) {
                Message message;
                if (input.bytesMessage()) {
                    BytesMessage bytes = session.createBytesMessage();
                    bytes.writeBytes(input.bytes());
                    message = bytes;
                } else {
                    message = session.createTextMessage(new String(input.bytes(), StandardCharsets.UTF_8));
                }
                message.setStringProperty(HarnessInput.TAG_PROPERTY, input.tag());
                producer.send(message);
                if (++inBatch == SEND_BATCH) {
                    session.commit();
                    inBatch = 0;
                }
            }
            session.commit();
        }
    }

    /**
     * Consumes every message on the queue: until none has come for {@code quiet}, at most {@code limit} messages
     * and for at most {@code atMost}, so that it ends however the queue behaves.
     */
    public List<Received> drain(String queue, Duration quiet, int limit, Duration atMost) throws JMSException {
        List<Received> received = new ArrayList<>();
        Instant deadline = Instant.now().plus(atMost);
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            connection.start();
            while (received.size() < limit && Instant.now().isBefore(deadline)) {
                Message message = consumer.receive(quiet.toMillis());
                if (message == null) {
                    break;
                }
                Long auditId = message.propertyExists("ClaimGuardAuditId") ? message.getLongProperty("ClaimGuardAuditId") : null;
                received.add(new Received(body(message), auditId));
            }
        }
        return received;
    }

    private static byte[] body(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            String content = text.getText();
            return content == null ? new byte[0] : content.getBytes(StandardCharsets.UTF_8);
        }
        if (message instanceof BytesMessage bytes) {
            byte[] content = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(content);
            return content;
        }
        throw new IllegalStateException("unexpected " + message.getClass().getSimpleName() + " " + message.getJMSMessageID());
    }
}
