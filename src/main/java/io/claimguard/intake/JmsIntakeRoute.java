package io.claimguard.intake;

import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import jakarta.jms.JMSException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Enumeration;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.jms.JmsMessage;
import org.apache.camel.support.DefaultMessage;
import org.springframework.stereotype.Component;

/**
 * The JMS entry: one TextMessage or BytesMessage is one input, consumed in a local JMS transaction that commits
 * only after the input's audit rows (or dead_letter row) are committed. The result, or the dead-letter copy of a
 * rejected or failed input, is sent in that same transaction; anything else rolls it back, and the broker
 * redelivers with back-off.
 */
@Component
public class JmsIntakeRoute extends EndpointRouteBuilder {

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
                .process(JmsIntakeRoute::capture)
                .to(Pipeline.VERIFY)
                .filter(InputExchange.SET_ASIDE)
                    .process(JmsIntakeRoute::restoreOriginalMessage)
                    .to(jms("queue:{{claimguard.jms.dead-letter-queue}}").disableReplyTo(true))
                .end()
                .process(observer::completed);
    }

    private static void capture(Exchange exchange) {
        Object body = exchange.getIn().getBody();
        byte[] payload = body instanceof String text
                ? text.getBytes(StandardCharsets.UTF_8)
                : exchange.getIn().getBody(byte[].class);
        String messageId = exchange.getIn().getHeader("JMSMessageID", String.class);
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.JMS, messageId,
                OffsetDateTime.now(), payload == null ? new byte[0] : payload));
        exchange.setProperty(ORIGINAL_BODY, body);
        if (exchange.getIn() instanceof JmsMessage jms) {
            exchange.setProperty(ORIGINAL_MESSAGE, jms.getJmsMessage());
        }
        // From here on the input lives in the exchange properties. An empty message keeps the rest of the way cheap:
        // the error handler copies the message for every input (to restore it before a retry), and a JMS message
        // is copied by reading every JMS header and property; nor can the input's properties leak onto the result.
        exchange.setIn(new DefaultMessage(exchange));
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
