package io.claimguard.forward;

import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import org.apache.camel.Exchange;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.jms.JmsMessageType;
import org.springframework.stereotype.Component;

/**
 * Sends the effective result (the body) to the output queue as a TextMessage, after its audit rows are committed,
 * with JMS properties for consumers' selectors. Failures go back to the verify route, whose retry policy knows
 * what they mean for the input.
 */
@Component
public class ForwardRoute extends EndpointRouteBuilder {

    public static final String AUDIT_ID_PROPERTY = "ClaimGuardAuditId";
    public static final String REQUEST_ID_PROPERTY = "ClaimGuardRequestId";
    public static final String VERDICT_PROPERTY = "ClaimGuardVerdict";

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.FORWARD)
                .routeId("forward")
                // The input's own JMS properties and JMS headers stay behind; Camel's internal headers are
                // never sent as JMS properties by camel-jms.
                .removeHeaders("^(?!Camel).*")
                .process(ForwardRoute::describeResult)
                .to(jms("queue:{{claimguard.jms.output-queue}}")
                        .jmsMessageType(JmsMessageType.Text)
                        .disableReplyTo(true));
    }

    private static void describeResult(Exchange exchange) {
        Verification verification = InputExchange.verification(exchange);
        exchange.getIn().setHeader(AUDIT_ID_PROPERTY, InputExchange.auditId(exchange));
        exchange.getIn().setHeader(REQUEST_ID_PROPERTY, verification.requestId());
        exchange.getIn().setHeader(VERDICT_PROPERTY, verification.guard().effectiveVerdict().name());
    }
}
