package io.claimguard.testkit;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
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
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * The harness's side of the broker, reached like any producer: the service's embedded broker through its TCP
 * acceptor, or a standalone broker. Each step logs in with the role it plays (a producer sends, a consumer takes the
 * results, an operator browses the dead-letter queue); a broker without security (a harness's own) needs no logins.
 */
public final class JmsClient {

    /** Persistent messages sent per local transaction: durable, without one journal sync per message. */
    private static final int SEND_BATCH = 100;

    private final String brokerUrl;
    private final BrokerUsers logins;

    /** A client of a broker that requires no login. */
    public JmsClient(String brokerUrl) {
        this(brokerUrl, null);
    }

    /** A client that logs in with the role each step needs, from {@code logins}. */
    public JmsClient(String brokerUrl, BrokerUsers logins) {
        this.brokerUrl = brokerUrl;
        this.logins = logins;
    }

    private ActiveMQConnectionFactory factory(BrokerRole role) {
        BrokerLogin login = logins == null ? null : logins.login(role).orElseThrow(
                () -> new IllegalStateException("no " + role.key() + " login for " + brokerUrl));
        return login == null ? new ActiveMQConnectionFactory(brokerUrl)
                : new ActiveMQConnectionFactory(brokerUrl, login.user(), login.password());
    }

    /**
     * A message as read from a queue: its body's bytes (empty for a type that is neither text nor bytes), the audit id
     * property where it has one, the harness's tag where it has one, and a dead-letter copy's reason property.
     */
    public record Received(byte[] body, Long auditId, String tag, String deadLetterReason) {
    }

    /**
     * Sends the inputs, each as its {@link HarnessInput#body} type, as a producer; returns each one's JMS message id by
     * tag.
     */
    public Map<String, String> send(String queue, List<HarnessInput> inputs) throws JMSException {
        Map<String, String> messageIds = new HashMap<>();
        try (ActiveMQConnectionFactory factory = factory(BrokerRole.PRODUCER);
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
     * Sends one persistent TextMessage with the given string properties, with the login of {@code role} (a result that
     * ClaimGuard did not make, on the output queue, sent with a login allowed to send there).
     */
    public void sendText(BrokerRole role, String queue, String text, Map<String, String> properties) throws JMSException {
        try (ActiveMQConnectionFactory factory = factory(role);
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
     * Consumes every message on the queue (the output queue), as a consumer: until none has come for {@code quiet}, at
     * most {@code limit} messages and for at most {@code atMost}, so that it ends however the queue behaves.
     */
    public List<Received> drain(String queue, Duration quiet, int limit, Duration atMost) throws JMSException {
        List<Received> received = new ArrayList<>();
        Instant deadline = Instant.now().plus(atMost);
        try (ActiveMQConnectionFactory factory = factory(BrokerRole.CONSUMER);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = session.createConsumer(session.createQueue(queue))) {
            connection.start();
            while (received.size() < limit && Instant.now().isBefore(deadline)) {
                Message message = consumer.receive(quiet.toMillis());
                if (message == null) {
                    break;
                }
                received.add(received(message));
            }
        }
        return received;
    }

    /**
     * Every message on the queue (the dead-letter queue), browsed as an operator, who may read it but not take it: at
     * most {@code limit}. The messages stay.
     */
    public List<Received> browse(String queue, int limit) throws JMSException {
        List<Received> received = new ArrayList<>();
        try (ActiveMQConnectionFactory factory = factory(BrokerRole.OPERATOR);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
            connection.start();
            for (Enumeration<?> messages = browser.getEnumeration(); messages.hasMoreElements() && received.size() < limit; ) {
                received.add(received((Message) messages.nextElement()));
            }
        }
        return received;
    }

    private static Received received(Message message) throws JMSException {
        Long auditId = message.propertyExists("ClaimGuardAuditId") ? message.getLongProperty("ClaimGuardAuditId") : null;
        return new Received(bytesOf(message), auditId, message.getStringProperty(HarnessInput.TAG_PROPERTY),
                message.getStringProperty(JmsIntakeRoute.REASON_PROPERTY));
    }

    /**
     * Messages on the queue now as the broker counts them, those being delivered included: a core queue query, which
     * reads no message and needs only a login (the operator's).
     */
    public long depth(String queue) throws Exception {
        BrokerLogin login = logins == null ? null : logins.login(BrokerRole.OPERATOR).orElseThrow();
        try (ServerLocator locator = ActiveMQClient.createServerLocator(brokerUrl);
                ClientSessionFactory sessions = locator.createSessionFactory();
                ClientSession session = login == null ? sessions.createSession()
                        : sessions.createSession(login.user(), login.password(), false, true, true, false, 0)) {
            ClientSession.QueueQuery query = session.queueQuery(SimpleString.of(queue));
            return query.isExists() ? query.getMessageCount() : 0;
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
