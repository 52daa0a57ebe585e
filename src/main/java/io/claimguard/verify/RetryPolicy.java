package io.claimguard.verify;

import static io.claimguard.support.Failures.DATABASE_OUTAGE;
import static io.claimguard.support.Failures.DATABASE_REFUSAL;
import static io.claimguard.pipeline.InputExchange.BEFORE_AUDIT_COMMIT;

import io.claimguard.config.ClaimGuardProperties;
import org.apache.camel.LoggingLevel;
import org.apache.camel.builder.PredicateBuilder;
import org.apache.camel.builder.RouteConfigurationBuilder;
import org.apache.camel.model.OnExceptionDefinition;
import org.apache.camel.model.RouteConfigurationDefinition;
import org.springframework.stereotype.Component;

/**
 * How often a failing step of the verify route is tried again, by what the failure means:
 * <ul>
 *   <li>the database is unreachable: the input waits, retried with back-off and without end (but not while the
 *       service stops: then the input is left unacknowledged instead of holding the shutdown up);</li>
 *   <li>the database refuses the input as data, before its audit commit: not retried, it would fail the same way;</li>
 *   <li>anything else: retried {@code claimguard.processing.max-retries} times with back-off.</li>
 * </ul>
 * A failure that is still there afterwards goes back, unhandled, to the {@code verify} route ({@link VerificationRoute}).
 */
@Component
public class RetryPolicy extends RouteConfigurationBuilder {

    public static final String ID = "retry-by-failure";

    private final ClaimGuardProperties.Processing processing;

    public RetryPolicy(ClaimGuardProperties properties) {
        this.processing = properties.processing();
    }

    @Override
    public void configuration() {
        // Not logged when exhausted: the verify route decides what a failure that outlasted its retries means, and logs it.
        RouteConfigurationDefinition retries = routeConfiguration(ID);
        OnExceptionDefinition outage = retries.onException(Exception.class)
                .onWhen(DATABASE_OUTAGE)
                .maximumRedeliveries(-1)
                .redeliveryDelay(processing.outageRetryDelay().toMillis())
                .useExponentialBackOff()
                .backOffMultiplier(2)
                .maximumRedeliveryDelay(processing.outageMaxRetryDelay().toMillis())
                .retryAttemptedLogLevel(LoggingLevel.WARN)
                .logRetryStackTrace(false)
                .logExhausted(false);
        // logs every tenth retry of a long outage, not each
        outage.getRedeliveryPolicyType().allowRedeliveryWhileStopping(false).retryAttemptedLogInterval("10");
        retries.onException(Exception.class)
                .onWhen(PredicateBuilder.and(BEFORE_AUDIT_COMMIT, DATABASE_REFUSAL))
                .maximumRedeliveries(0)
                .logExhausted(false);
        retries.onException(Exception.class)
                .maximumRedeliveries(processing.maxRetries())
                .redeliveryDelay(processing.retryDelay().toMillis())
                .useExponentialBackOff()
                .retryAttemptedLogLevel(LoggingLevel.WARN)
                .logExhausted(false);
    }
}
