package io.claimguard.ingest;

import io.claimguard.verify.Pipeline;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.jms.JmsMessage;
import org.apache.camel.support.DefaultMessage;
import org.springframework.stereotype.Component;

/**
 * The JMS entry: one TextMessage or BytesMessage is one input, consumed in a local JMS transaction. The
 * transaction commits only after the audit rows are committed and the result sent (the send joins the same
 * transaction); a rejected or failed input moves to the dead-letter queue in that same commit (see
 * {@code DeadLetterRoute}). Anything else rolls back, and the broker redelivers with back-off.
 */
@Component
public class JmsIntakeRoute extends RouteBuilder {

    public static final String REASON_PROPERTY = "ClaimGuardDeadLetterReason";
    /** The message body as it came (String or byte[]), for the dead-letter queue. */
    public static final String ORIGINAL_BODY = "claimguardOriginalBody";
    /** The JMS message as it came, whose properties the dead-letter copy carries. */
    public static final String ORIGINAL_MESSAGE = "claimguardOriginalMessage";

    @Override
    public void configure() {
        from("{{claimguard.endpoint.jms-intake}}")
                .routeId("jms-intake")
                .process(JmsIntakeRoute::capture)
                .to(Pipeline.VERIFY);
    }

    private static void capture(Exchange exchange) {
        Object body = exchange.getIn().getBody();
        byte[] payload = body instanceof String text
                ? text.getBytes(StandardCharsets.UTF_8)
                : exchange.getIn().getBody(byte[].class);
        String messageId = exchange.getIn().getHeader("JMSMessageID", String.class);
        exchange.setProperty(Pipeline.INPUT, new ReceivedInput(ReceivedInput.JMS, messageId,
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

}
