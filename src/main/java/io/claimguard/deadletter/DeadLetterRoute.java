package io.claimguard.deadletter;

import io.claimguard.ingest.FileIntakeRoute;
import io.claimguard.ingest.JmsIntakeRoute;
import io.claimguard.ingest.ReceivedInput;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.verify.Pipeline;
import jakarta.jms.JMSException;
import java.util.Enumeration;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Sets a rejected or failed input aside, never losing it: its dead_letter row first (the body holds the prepared
 * statement), then, in the same unit of work as the input's acknowledgement, the original message onto the
 * dead-letter queue or the file into {@code .error/}.
 */
@Component
public class DeadLetterRoute extends RouteBuilder {

    private final PipelineObserver observer;

    public DeadLetterRoute(PipelineObserver observer) {
        this.observer = observer;
    }

    @Override
    public void configure() {
        // failures go back to the verify route, whose error handler knows what they mean for the input
        errorHandler(noErrorHandler());

        from(Pipeline.DEAD_LETTER)
                .routeId("dead-letter")
                .to("{{claimguard.endpoint.jdbc}}")
                .process(observer::deadLettered)
                .choice()
                    .when(exchange -> input(exchange).fromFile())
                        .setProperty(FileIntakeRoute.DISPOSITION, constant(FileIntakeRoute.ERROR))
                    .otherwise()
                        .process(DeadLetterRoute::restoreOriginalMessage)
                        .to("{{claimguard.endpoint.jms-dead-letter}}")
                .end();
    }

    /**
     * The dead-letter queue gets the message as it came, text or bytes, with its own JMS properties and the reason
     * as one more.
     */
    private static void restoreOriginalMessage(Exchange exchange) throws JMSException {
        Message message = exchange.getIn();
        message.removeHeaders("*");
        if (exchange.getProperty(JmsIntakeRoute.ORIGINAL_MESSAGE) instanceof jakarta.jms.Message original) {
            for (Enumeration<?> names = original.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                message.setHeader(name, original.getObjectProperty(name));
            }
        }
        message.setBody(exchange.getProperty(JmsIntakeRoute.ORIGINAL_BODY));
        message.setHeader(JmsIntakeRoute.REASON_PROPERTY, exchange.getProperty(Pipeline.DEAD_LETTER_REASON, String.class));
    }

    private static ReceivedInput input(Exchange exchange) {
        return exchange.getProperty(Pipeline.INPUT, ReceivedInput.class);
    }
}
