package io.claimguard.ingest;

import io.claimguard.verify.Outcome;
import io.claimguard.verify.Pipeline;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * The JMS entry: one TextMessage or BytesMessage is one input, consumed in a local JMS transaction. The
 * transaction commits only after the audit rows are committed and the result sent (the send joins the same
 * transaction); a rejected or failed input moves to the dead-letter queue in that same commit. Anything
 * else rolls back, and the broker redelivers with back-off.
 */
@Component
public class JmsIntakeRoute extends RouteBuilder {

    public static final String REASON_PROPERTY = "ClaimGuardDeadLetterReason";
    private static final String ORIGINAL_BODY = "claimguardOriginalBody";

    @Override
    public void configure() {
        from("{{claimguard.endpoint.jms-intake}}")
                .routeId("jms-intake")
                .process(JmsIntakeRoute::capture)
                .to(Pipeline.VERIFY)
                .filter(exchangeProperty(Pipeline.OUTCOME).in(Outcome.REJECTED, Outcome.FAILED))
                    .process(JmsIntakeRoute::restoreOriginal)
                    .to("{{claimguard.endpoint.jms-dead-letter}}")
                .end();
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
    }

    /** The dead-letter queue gets the message as it came, text or bytes, with the reason as a property. */
    private static void restoreOriginal(Exchange exchange) {
        exchange.getIn().setBody(exchange.getProperty(ORIGINAL_BODY));
        exchange.getIn().setHeader(REASON_PROPERTY, exchange.getProperty(Pipeline.DEAD_LETTER_REASON, String.class));
    }
}
