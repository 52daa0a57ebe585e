package io.claimguard.forward;

import io.claimguard.pipeline.Pipeline;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Sends the signed effective result to the output queue as a TextMessage, after its audit rows are committed,
 * with JMS properties for consumers' selectors and its signature; the results of concurrent inputs share one JMS transaction
 * ({@link ResultSender}). Nothing of the input's own message is sent. Failures go back to the verify route, whose
 * retry policy knows what they mean for the input.
 */
@Component
public class ForwardRoute extends RouteBuilder {

    private final ResultSender sender;

    public ForwardRoute(ResultSender sender) {
        this.sender = sender;
    }

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.FORWARD)
                .routeId("forward")
                .process(sender::send);
    }
}
