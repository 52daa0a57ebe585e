package io.claimguard.verify;

import io.claimguard.audit.AuditStatements;
import io.claimguard.audit.DatabaseOutage;
import io.claimguard.audit.DatabaseRefusal;
import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.ingest.ReceivedInput;
import io.claimguard.observe.PipelineObserver;
import org.apache.camel.Exchange;
import org.apache.camel.LoggingLevel;
import org.apache.camel.builder.PredicateBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.OnExceptionDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The one processing path both intake routes feed: read, project and guard the input, persist its audit rows
 * (or its dead_letter row), then forward the effective result. Sets {@link Pipeline#OUTCOME}.
 *
 * <p>Failures are told apart by what they mean for the input: an unreachable database makes it wait, without
 * end; a value the database refuses is dead-lettered at once; another failure before the audit rows are
 * committed is retried a few times, then dead-lettered; a failure
 * after the commit (forwarding) is retried, then left unacknowledged, so that the input comes again and is
 * forwarded as a duplicate.
 */
@Component
public class VerificationRoute extends RouteBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(VerificationRoute.class);

    private final EnvelopeStep envelopeStep;
    private final ClaimGuardProperties.Processing processing;

    private final PipelineObserver observer;

    public VerificationRoute(EnvelopeReader reader, ClaimGuardProperties properties, PipelineObserver observer) {
        this.envelopeStep = new EnvelopeStep(reader);
        this.processing = properties.processing();
        this.observer = observer;
    }

    @Override
    public void configure() {
        OnExceptionDefinition databaseOutage = onException(Exception.class)
                .onWhen(new DatabaseOutage())
                .maximumRedeliveries(-1)
                .redeliveryDelay(processing.outageRetryDelay().toMillis())
                .useExponentialBackOff()
                .backOffMultiplier(2)
                .maximumRedeliveryDelay(processing.outageMaxRetryDelay().toMillis())
                .retryAttemptedLogLevel(LoggingLevel.WARN)
                .logRetryStackTrace(false);
        // on shutdown the waiting input is left unacknowledged instead of holding the service up
        databaseOutage.getRedeliveryPolicyType().allowRedeliveryWhileStopping(false).retryAttemptedLogInterval("10");

        // A value PostgreSQL refuses fails the same way every time: dead-letter it at once, holding nothing up.
        deadLetterWhenProcessingFails(onException(Exception.class)
                .onWhen(PredicateBuilder.and(exchangeProperty(Pipeline.OUTCOME).isNull(), new DatabaseRefusal()))
                .maximumRedeliveries(0), 1);

        deadLetterWhenProcessingFails(onException(Exception.class)
                .onWhen(exchangeProperty(Pipeline.OUTCOME).isNull())
                .maximumRedeliveries(processing.maxRetries())
                .redeliveryDelay(processing.retryDelay().toMillis())
                .useExponentialBackOff()
                .retryAttemptedLogLevel(LoggingLevel.WARN), processing.maxRetries() + 1);

        onException(Exception.class)
                .maximumRedeliveries(processing.maxRetries())
                .redeliveryDelay(processing.retryDelay().toMillis())
                .useExponentialBackOff()
                .retryAttemptedLogLevel(LoggingLevel.WARN);

        from(Pipeline.VERIFY)
                .routeId("verify")
                .process(envelopeStep)
                .choice()
                    .when(exchangeProperty(Pipeline.OUTCOME).isEqualTo(Outcome.REJECTED))
                        .to(Pipeline.DEAD_LETTER)
                    .otherwise()
                        .to(Pipeline.AUDIT)
                        .process(observer::audited)
                        .to(Pipeline.FORWARD)
                .end()
                .process(observer::completed);
    }

    /** A failure before the audit commit: the input is recorded in dead_letter and set aside. */
    private void deadLetterWhenProcessingFails(OnExceptionDefinition failure, int attempts) {
        failure.handled(true)
                .setProperty(Pipeline.OUTCOME, constant(Outcome.FAILED))
                .process(exchange -> prepareFailureDeadLetter(exchange, attempts))
                .to(Pipeline.DEAD_LETTER)
                .process(observer::completed);
    }

    private static void prepareFailureDeadLetter(Exchange exchange, int attempts) {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        ReceivedInput input = exchange.getProperty(Pipeline.INPUT, ReceivedInput.class);
        String reason = "processing failed after " + attempts + (attempts == 1 ? " attempt: " : " attempts: ")
                + describe(failure);
        // the reason names the failure; its stack trace only at DEBUG, so that a burst of poison cannot flood the log
        LOG.error("dead-lettering {} input {}: {}", input.source(), input.sourceRef(), reason);
        LOG.debug("failure of {} input {}", input.source(), input.sourceRef(), failure);
        AuditStatements.prepareDeadLetterInsert(exchange, "processing_failed", reason);
    }

    private static String describe(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        StringBuilder text = new StringBuilder(failure.getClass().getSimpleName()).append(": ").append(failure.getMessage());
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != failure) {
            text.append(" (caused by ").append(root.getClass().getSimpleName()).append(": ").append(root.getMessage()).append(')');
        }
        return text.toString();
    }
}
