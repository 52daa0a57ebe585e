package io.claimguard.cli;

import io.claimguard.broker.BrokerRole;
import io.claimguard.pipeline.Redrive;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.charset.StandardCharsets;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/** Sends inputs to the service's input queue, one persistent JMS message each, as a producer outside it would. */
final class InputSender implements AutoCloseable {

    private final String target;
    private final BrokerOptions broker;
    private final BrokerRole role;
    private final ActiveMQConnectionFactory factory;
    private final Connection connection;
    private final Session session;
    private final MessageProducer producer;

    /** A sender with the login of the role (a producer's for {@code send}, an operator's for {@code redrive}). */
    InputSender(BrokerOptions broker, BrokerRole role, String queue) {
        this.target = "sending to " + queue;
        this.broker = broker;
        this.role = role;
        this.factory = broker.connectionFactory();
        try {
            this.connection = broker.connect(factory, role);
            this.session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            this.producer = session.createProducer(session.createQueue(queue));
        } catch (JMSException | RuntimeException e) {
            close();
            throw e instanceof ToolFailure known ? known : broker.failure(role, target, e);
        }
    }

    /** Sends the bytes as a TextMessage (the text they hold in UTF-8) or as a BytesMessage; returns the message id. */
    String send(byte[] content, boolean asBytes) {
        try {
            return send(asBytes ? bytesMessage(content) : session.createTextMessage(new String(content, StandardCharsets.UTF_8)));
        } catch (JMSException e) {
            throw broker.failure(role, target, e);
        }
    }

    /** Sends a dead letter's bytes again as a BytesMessage that names it ({@link Redrive#PROPERTY}). */
    String redrive(byte[] payload, long deadLetterId) {
        try {
            BytesMessage message = bytesMessage(payload);
            message.setLongProperty(Redrive.PROPERTY, deadLetterId);
            return send(message);
        } catch (JMSException e) {
            throw broker.failure(role, target, e);
        }
    }

    private BytesMessage bytesMessage(byte[] content) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(content);
        return message;
    }

    private String send(Message message) throws JMSException {
        producer.send(message);
        return message.getJMSMessageID();
    }

    @Override
    public void close() {
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (JMSException e) {
            // every message was sent (a send that fails throws): nothing is lost by a failing close
        } finally {
            factory.close();
        }
    }
}
