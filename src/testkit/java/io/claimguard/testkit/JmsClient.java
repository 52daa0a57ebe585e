package io.claimguard.testkit;

import io.claimguard.intake.JmsIntakeRoute;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.api.core.ActiveMQBuffer;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * The harness's side of the broker, reached like any producer: the service's embedded broker through its TCP
 * acceptor, or a standalone broker with a user and password.
 */
public final class JmsClient {

    /** Persistent messages sent per local transaction: durable, without one journal sync per message. */
    private static final int SEND_BATCH = 100;

    private final String brokerUrl;
    private final String user;
    private final String password;

    public JmsClient(String brokerUrl) {
        this(brokerUrl, null, null);
    }

    public JmsClient(String brokerUrl, String user, String password) {
        this.brokerUrl = brokerUrl;
        this.user = user;
        this.password = password;
    }

    /**
     * A message as read from a queue: its body's bytes (empty for a type that is neither text nor bytes), the audit id
     * property where it has one, the harness's tag where it has one, and a dead-letter copy's reason property.
     */
    public record Received(byte[] body, Long auditId, String tag, String deadLetterReason) {
    }

    /** Sends the inputs, each as its {@link HarnessInput#body} type, and returns each one's JMS message id by tag. */
    public Map<String, String> send(String queue, List<HarnessInput> inputs) throws JMSException {
        Map<String, String> messageIds = new HashMap<>();
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl, user, password);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                MessageProducer producer = session.createProducer(session.createQueue(queue))) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            int inBatch = 0;
            for (HarnessInput input : inputs) {
                Message message = switch (input.body()) {
                    case TEXT -> session.createTextMessage(new String(input.bytes(), StandardCharsets.UTF_8));
                    case BYTES -> {
                        BytesMessage bytes = session.createBytesMessage();
                        bytes.writeBytes(input.bytes());
                        yield bytes;
                    }
                    case MAP -> {
                        MapMessage map = session.createMapMessage();
                        map.setBytes("envelope", input.bytes());
                        yield map;
                    }
                    case STREAM -> {
                        StreamMessage stream = session.createStreamMessage();
                        stream.writeBytes(input.bytes());
                        yield stream;
                    }
                    case OBJECT -> session.createObjectMessage(new String(input.bytes(), StandardCharsets.UTF_8));
                    case UNDECODABLE_TEXT -> {
                        // raw bytes in a message marked as text, as a core producer can send it: no JMS client can
                        // receive it as a TextMessage
                        BytesMessage raw = session.createBytesMessage();
                        raw.writeBytes(input.bytes());
                        ((ActiveMQMessage) raw).getCoreMessage().setType(org.apache.activemq.artemis.api.core.Message.TEXT_TYPE);
                        yield raw;
                    }
                };
                message.setStringProperty(HarnessInput.TAG_PROPERTY, input.tag());
                producer.send(message);
                messageIds.put(input.tag(), message.getJMSMessageID());
                if (++inBatch == SEND_BATCH) {
                    session.commit();
                    inBatch = 0;
                }
            }
            session.commit();
        }
        return messageIds;
    }

    /**
     * Sends one persistent TextMessage with the given string properties, as any client allowed to send to the queue can
     * (a result that ClaimGuard did not make, on the output queue).
     */
    public void sendText(String queue, String text, Map<String, String> properties) throws JMSException {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl, user, password);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(session.createQueue(queue))) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            TextMessage message = session.createTextMessage(text);
            for (Map.Entry<String, String> property : properties.entrySet()) {
                message.setStringProperty(property.getKey(), property.getValue());
            }
            producer.send(message);
        }
    }

    /**
     * Consumes every message on the queue: until none has come for {@code quiet}, at most {@code limit} messages
     * and for at most {@code atMost}, so that it ends however the queue behaves.
     */
    public List<Received> drain(String queue, Duration quiet, int limit, Duration atMost) throws JMSException {
        List<Received> received = new ArrayList<>();
        Instant deadline = Instant.now().plus(atMost);
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl, user, password);
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
                received.add(new Received(bytesOf(message), auditId, message.getStringProperty(HarnessInput.TAG_PROPERTY),
                        message.getStringProperty(JmsIntakeRoute.REASON_PROPERTY)));
            }
        }
        return received;
    }

    /** Messages on the queue now, counted with a browser (messages being delivered may not be counted). */
    public int depth(String queue) throws JMSException {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl, user, password);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
            connection.start();
            int count = 0;
            for (Enumeration<?> messages = browser.getEnumeration(); messages.hasMoreElements(); messages.nextElement()) {
                count++;
            }
            return count;
        }
    }

    /**
     * A message's body as bytes: a TextMessage's text as UTF-8, a BytesMessage's bytes, any other (a Map, Stream or
     * Object message; ClaimGuard's dead-letter copies keep the type) its body as the broker holds it.
     */
    public static byte[] bytesOf(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            String content = text.getText();
            return content == null ? new byte[0] : content.getBytes(StandardCharsets.UTF_8);
        }
        if (message instanceof BytesMessage bytes) {
            byte[] content = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(content);
            return content;
        }
        // a Map, Stream or Object message (ClaimGuard's copies keep the type): its body as the broker holds it
        if (message instanceof ActiveMQMessage artemis) {
            ActiveMQBuffer body = artemis.getCoreMessage().getReadOnlyBodyBuffer();
            byte[] content = new byte[body.readableBytes()];
            body.readBytes(content);
            return content;
        }
        return new byte[0];
    }
}
