package io.claimguard.intake;

import io.claimguard.domain.RejectionReason;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Enumeration;
import org.apache.activemq.artemis.api.core.ActiveMQBuffer;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.jms.JmsMessage;
import org.apache.camel.support.DefaultMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The JMS entry: one TextMessage or BytesMessage is one input, consumed in a local JMS transaction that commits
 * only after the input's audit rows (or dead_letter row) are committed. The result, or the dead-letter copy of a
 * rejected or failed input, is sent in that same transaction; anything else rolls it back, and the broker
 * redelivers with back-off.
 */
@Component
public class JmsIntakeRoute extends EndpointRouteBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(JmsIntakeRoute.class);

    /** The JMS property that names why a message is on the dead-letter queue. */
    public static final String REASON_PROPERTY = "ClaimGuardDeadLetterReason";

    /** The message body as it came (String or byte[]), for the dead-letter queue. */
    private static final String ORIGINAL_BODY = "claimguardOriginalBody";
    /** The JMS message as it came, whose properties the dead-letter copy carries. */
    private static final String ORIGINAL_MESSAGE = "claimguardOriginalMessage";

    private final PipelineObserver observer;

    public JmsIntakeRoute(PipelineObserver observer) {
        this.observer = observer;
    }

    @Override
    public void configure() {
        from(jms("queue:{{claimguard.jms.input-queue}}")
                        // A local JMS transaction and no transaction manager: the listener exposes its own transacted
                        // session to the sends below (result, dead-letter copy), so that they and the acknowledgement
                        // are one commit. With the manager Camel would otherwise create, the acknowledgement is
                        // committed first and the sends after it, in another session: a crash between the two lost
                        // the result of an audited input (found by the fault harness).
                        .transacted(true)
                        .cacheLevelName("CACHE_CONSUMER")
                        .concurrentConsumers("{{claimguard.jms.concurrent-consumers}}")
                        .disableReplyTo(true)
                        .advanced().lazyCreateTransactionManager(false))
                .routeId("jms-intake")
                // the body is taken as it is (text or bytes); caching it first would unpack every message type, an
                // ObjectMessage included, before capture can tell that ClaimGuard does not take it
                .streamCache("false")
                .process(JmsIntakeRoute::capture)
                .to(Pipeline.VERIFY)
                .filter(InputExchange.SET_ASIDE)
                    .process(JmsIntakeRoute::restoreOriginalMessage)
                    .to(jms("queue:{{claimguard.jms.dead-letter-queue}}").disableReplyTo(true))
                .end()
                .process(observer::completed);
    }

    private static void capture(Exchange exchange) {
        jakarta.jms.Message original = exchange.getIn() instanceof JmsMessage jms ? jms.getJmsMessage() : null;
        ReceivedInput input;
        if (original == null || original instanceof TextMessage || original instanceof BytesMessage) {
            Object body = exchange.getIn().getBody();
            byte[] payload = body instanceof String text
                    ? text.getBytes(StandardCharsets.UTF_8)
                    : exchange.getIn().getBody(byte[].class);
            input = received(exchange, payload);
            exchange.setProperty(ORIGINAL_BODY, body);
        } else {
            // Its body is never unpacked (an ObjectMessage is not deserialised): the message is rejected at its first
            // delivery, with the body's bytes as the broker holds them.
            byte[] payload = bodyAsTheBrokerHoldsIt(original);
            input = received(exchange, payload);
            exchange.setProperty(ORIGINAL_BODY, payload);
            DeadLetter rejection = new DeadLetter(RejectionReason.MESSAGE_TYPE_UNSUPPORTED, typeName(original)
                    + " carries no envelope: ClaimGuard takes a TextMessage or a BytesMessage");
            LOG.warn("rejected jms input {} ({} bytes): {}", input.sourceRef(), payload.length, rejection.describe());
            InputExchange.reject(exchange, rejection);
        }
        InputExchange.receive(exchange, input);
        if (original != null) {
            exchange.setProperty(ORIGINAL_MESSAGE, original);
        }
        // From here on the input lives in the exchange properties. An empty message keeps the rest of the way cheap:
        // the error handler copies the message for every input (to restore it before a retry), and a JMS message
        // is copied by reading every JMS header and property; nor can the input's properties leak onto the result.
        exchange.setIn(new DefaultMessage(exchange));
    }

    /** The JMS message id, or for a message sent without one (allowed to producers) the exchange's own id. */
    private static ReceivedInput received(Exchange exchange, byte[] payload) {
        String messageId = exchange.getIn().getHeader("JMSMessageID", String.class);
        String sourceRef = messageId != null && !messageId.isEmpty() ? messageId : "no-message-id:" + exchange.getExchangeId();
        return new ReceivedInput(ReceivedInput.Source.JMS, sourceRef, OffsetDateTime.now(),
                payload == null ? new byte[0] : payload);
    }

    /** The raw body of an Artemis message, as far as the client gives it without decoding; empty otherwise. */
    private static byte[] bodyAsTheBrokerHoldsIt(jakarta.jms.Message message) {
        if (message instanceof ActiveMQMessage artemis) {
            ActiveMQBuffer body = artemis.getCoreMessage().getReadOnlyBodyBuffer();
            byte[] bytes = new byte[body.readableBytes()];
            body.readBytes(bytes);
            return bytes;
        }
        return new byte[0];
    }

    private static String typeName(jakarta.jms.Message message) {
        if (message instanceof ObjectMessage) {
            return "an ObjectMessage";
        }
        if (message instanceof MapMessage) {
            return "a MapMessage";
        }
        return message instanceof StreamMessage ? "a StreamMessage" : "a Message without a body";
    }

    /**
     * The dead-letter queue gets the message as it came, text or bytes, with its own JMS properties and the reason
     * as one more.
     */
    private static void restoreOriginalMessage(Exchange exchange) throws JMSException {
        Message message = exchange.getIn();
        message.removeHeaders("*");
        if (exchange.getProperty(ORIGINAL_MESSAGE) instanceof jakarta.jms.Message original) {
            for (Enumeration<?> names = original.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                message.setHeader(name, original.getObjectProperty(name));
            }
        }
        message.setBody(exchange.getProperty(ORIGINAL_BODY));
        message.setHeader(REASON_PROPERTY, InputExchange.deadLetter(exchange).describe());
    }
}
