package io.claimguard.forward;

import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ResultProperties;
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

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.FORWARD)
                .routeId("forward")
                // The input's own JMS properties and JMS headers stay behind; Camel's internal headers are
                // never sent as JMS properties by camel-jms.
                .removeHeaders("^(?!Camel).*")
                .process(exchange -> ResultProperties.of(exchange).forEach(exchange.getIn()::setHeader))
                .to(jms("queue:{{claimguard.jms.output-queue}}")
                        .jmsMessageType(JmsMessageType.Text)
                        .disableReplyTo(true));
    }
}
