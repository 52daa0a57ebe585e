package io.claimguard.forward;

import io.claimguard.domain.Verification;
import io.claimguard.ingest.ReceivedInput;
import io.claimguard.verify.Pipeline;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Sends the effective result (the body) on, after its audit rows are committed: to the output queue as a
 * TextMessage and, for a file-drop input, to the outbox as {@code <request_id>.<audit_id>.json}, written under
 * a temporary name and then renamed.
 */
@Component
public class ForwardRoute extends RouteBuilder {

    /** JMS properties on the output message, for consumers' selectors. */
    public static final String AUDIT_ID_PROPERTY = "ClaimGuardAuditId";
    public static final String REQUEST_ID_PROPERTY = "ClaimGuardRequestId";
    public static final String VERDICT_PROPERTY = "ClaimGuardVerdict";
    /** The outbox file name, read by the outbox endpoint's {@code fileName} option. */
    public static final String OUTBOX_NAME = "claimguardOutboxName";

    @Override
    public void configure() {
        // failures go back to the verify route, whose error handler knows what they mean for the input
        errorHandler(noErrorHandler());

        from(Pipeline.FORWARD)
                .routeId("forward")
                // The input's own JMS properties and JMS headers stay behind; Camel's internal headers are
                // never sent as JMS properties by camel-jms.
                .removeHeaders("^(?!Camel).*")
                .process(ForwardRoute::describeResult)
                .to("{{claimguard.endpoint.jms-output}}")
                .filter(exchange -> exchange.getProperty(Pipeline.INPUT, ReceivedInput.class).fromFile())
                    .to("{{claimguard.endpoint.file-outbox}}")
                .end();
    }

    private static void describeResult(Exchange exchange) {
        Verification verification = exchange.getProperty(Pipeline.VERIFICATION, Verification.class);
        long auditId = exchange.getProperty(Pipeline.AUDIT_ID, Long.class);
        exchange.getIn().setHeader(AUDIT_ID_PROPERTY, auditId);
        exchange.getIn().setHeader(REQUEST_ID_PROPERTY, verification.requestId());
        exchange.getIn().setHeader(VERDICT_PROPERTY, verification.guard().effectiveVerdict().name());
        exchange.setProperty(OUTBOX_NAME, verification.requestId() + "." + auditId + ".json");
    }
}
