package io.claimguard.intake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientConsumer;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.reader.TextMessageUtil;
import org.apache.activemq.artemis.utils.UUIDGenerator;

/**
 * One connection to the broker with one transacted session: receives a batch of messages from the input queue, sends
 * what the batch produces (results, dead-letter copies) and acknowledges the batch, all in one transaction. Sends are
 * made as the JMS client makes them, so that JMS consumers read them as TextMessages with a JMS message id. Not
 * thread-safe: one batch at a time.
 */
final class BatchSession implements AutoCloseable {

    /** How long a receive waits for a batch's first message before the consumer looks whether it should stop. */
    private static final long FIRST_MESSAGE_WAIT_MILLIS = 250;
    /** The broker's own properties (routing, original address, duplicate id): a dead-letter copy leaves them behind. */
    private static final SimpleString BROKER_PROPERTY_PREFIX = SimpleString.of("_AMQ_");

    private final ClientSessionFactory factory;
    private final ClientSession session;
    private final ClientConsumer consumer;
    private final ClientProducer producer;

    private BatchSession(ClientSessionFactory factory, ClientSession session, ClientConsumer consumer,
            ClientProducer producer) {
        this.factory = factory;
        this.session = session;
        this.consumer = consumer;
        this.producer = producer;
    }

    static BatchSession open(ServerLocator locator, String user, String password, BatchSettings settings)
            throws Exception {
        ClientSessionFactory factory = locator.createSessionFactory();
        try {
            // transacted: sends and acknowledgements wait for commit; no pre-acknowledgement
            ClientSession session = factory.createSession(user, password, false, false, false, false,
                    locator.getAckBatchSize());
            ClientConsumer consumer = session.createConsumer(SimpleString.of(settings.queue()), null,
                    settings.consumerWindowBytes(), -1, false);
            ClientProducer producer = session.createProducer();
            session.start();
            return new BatchSession(factory, session, consumer, producer);
        } catch (Exception e) {
            factory.close();
            throw e;
        }
    }

    /**
     * Up to {@code batchSize} messages: waits briefly for the first, then takes what comes within
     * {@code batchTimeout} of it. Empty when nothing came.
     */
    List<BatchMessage> receive(int batchSize, Duration batchTimeout) throws ActiveMQException {
        ClientMessage first = consumer.receive(FIRST_MESSAGE_WAIT_MILLIS);
        if (first == null) {
            if (session.isClosed()) {
                throw new ActiveMQException("the session to the broker is closed");
            }
            return List.of();
        }
        List<BatchMessage> batch = new ArrayList<>(batchSize);
        batch.add(taken(first));
        long deadline = System.nanoTime() + batchTimeout.toNanos();
        while (batch.size() < batchSize) {
            long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            // receive(0) would wait for ever: past the deadline, take only what is already here
            ClientMessage next = leftMillis > 0 ? consumer.receive(leftMillis) : consumer.receiveImmediate();
            if (next == null) {
                break;
            }
            batch.add(taken(next));
        }
        return batch;
    }

    /**
     * Acknowledged in the transaction as soon as it is received, as the JMS client does: a batch that rolls back, or
     * whose process dies, then counts as a delivery attempt of each of its messages, so that a message that fails
     * every time reaches the broker's dead-letter address after its maximum delivery attempts.
     */
    private static BatchMessage taken(ClientMessage message) throws ActiveMQException {
        BatchMessage read = BatchMessage.read(message);
        message.acknowledge();
        return read;
    }

    /** A TextMessage with the given text and properties, as a JMS producer sends it, to a queue. */
    void sendText(String queue, String text, Map<String, Object> properties) throws ActiveMQException {
        ClientMessage message = newMessage(Message.TEXT_TYPE);
        TextMessageUtil.writeBodyText(message.getBodyBuffer(), SimpleString.of(text));
        properties.forEach((name, value) -> message.putObjectProperty(name, value));
        producer.send(SimpleString.of(queue), message);
    }

    /**
     * A copy of a received message to a queue: its body byte for byte, its application properties, its JMS message id
     * and one more property, as a message of {@link BatchMessage#copyType()}.
     */
    void sendCopy(String queue, BatchMessage original, String property, String value) throws ActiveMQException {
        ClientMessage received = original.message();
        ClientMessage copy = newMessage(original.copyType());
        copy.getBodyBuffer().writeBytes(original.rawBody());
        for (SimpleString name : received.getPropertyNames()) {
            if (!name.startsWith(BROKER_PROPERTY_PREFIX)) {
                copy.putObjectProperty(name, received.getObjectProperty(name));
            }
        }
        if (received.getUserID() != null) {
            copy.setUserID(received.getUserID());
        }
        copy.setTimestamp(received.getTimestamp());
        copy.putStringProperty(property, value);
        producer.send(SimpleString.of(queue), copy);
    }

    /** Commits the batch's acknowledgements with everything sent for it. */
    void commit() throws ActiveMQException {
        session.commit();
    }

    /** Undoes the sends and gives the batch back to the broker, which redelivers it (a delivery attempt each). */
    void rollback() throws ActiveMQException {
        session.rollback();
    }

    @Override
    public void close() {
        // closing the factory closes the session; a transaction still open is rolled back by the broker
        factory.close();
    }

    private ClientMessage newMessage(byte type) {
        ClientMessage message = session.createMessage(type, true);
        message.setUserID(UUIDGenerator.getInstance().generateUUID());
        message.setTimestamp(System.currentTimeMillis());
        message.setRoutingType(RoutingType.ANYCAST);
        return message;
    }
}
