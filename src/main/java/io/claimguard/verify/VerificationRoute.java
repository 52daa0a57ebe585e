package io.claimguard.verify;

import static io.claimguard.support.Failures.DATABASE_OUTAGE;
import static io.claimguard.pipeline.InputExchange.BEFORE_AUDIT_COMMIT;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Policy;
import io.claimguard.domain.RejectionReason;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.support.Failures;
import io.claimguard.support.LogValue;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;
import org.apache.camel.builder.PredicateBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The one processing path every intake feeds. {@code verify-steps} reads, projects and guards the input, then either
 * records a rejected input in dead_letter (or one its intake set aside already, unread), or commits the audit rows of an
 * accepted one, signs its effective result and forwards it (unless the intake sends it in its own transaction, as a JMS
 * batch does, or forwarded it in an earlier attempt, as a retried file may have); its failing steps are retried by
 * {@link RetryPolicy}. {@code verify} decides what a failure that outlasted
 * those retries means for the input:
 * <ul>
 *   <li>before the audit commit, and not because the database is away: the input is recorded in dead_letter as
 *       {@code processing_failed}, and the intake sets it aside as it does a rejected one;</li>
 *   <li>otherwise (a failure after the commit, or an outage while the service stops): the failure goes back to the
 *       intake, so that the input is not acknowledged and comes again; audited already, it is then forwarded as a
 *       duplicate.</li>
 * </ul>
 * The route returns normally for every input that is done with: its outcome says which.
 */
@Component
public class VerificationRoute extends RouteBuilder {

    /** Retried steps of one input, called by {@code verify}. */
    static final String STEPS = "direct:verify-steps";

    /** A failure that retries could not cure, before anything of the input was committed, and not an outage. */
    static final Predicate FAILED_BEFORE_AUDIT_COMMIT = PredicateBuilder.and(BEFORE_AUDIT_COMMIT,
            PredicateBuilder.not(DATABASE_OUTAGE));

    private static final Logger LOG = LoggerFactory.getLogger(VerificationRoute.class);

    private final EnvelopeStep envelopeStep;
    private final PipelineObserver observer;

    public VerificationRoute(EnvelopeReader reader, Policy policy, PipelineObserver observer) {
        this.envelopeStep = new EnvelopeStep(reader, policy);
        this.observer = observer;
    }

    @Override
    public void configure() {
        from(Pipeline.VERIFY)
                .routeId("verify")
                .doTry()
                    .to(STEPS)
                .doCatch(Exception.class).onWhen(FAILED_BEFORE_AUDIT_COMMIT)
                    .process(VerificationRoute::recordFailure)
                    .to(Pipeline.DEAD_LETTER)
                .end();

        from(STEPS)
                .routeId("verify-steps")
                .routeConfigurationId(RetryPolicy.ID)
                .process(envelopeStep)
                .choice()
                    .when(InputExchange.SET_ASIDE)
                        .to(Pipeline.DEAD_LETTER)
                    .otherwise()
                        .to(Pipeline.AUDIT)
                        .process(observer::audited)
                        .to(Pipeline.SIGN)
                        .filter(PredicateBuilder.not(PredicateBuilder.or(InputExchange.RESULT_SENT_BY_INTAKE,
                                InputExchange.FORWARDED_BEFORE)))
                            .to(Pipeline.FORWARD)
                        .end()
                .end();
    }

    private static void recordFailure(Exchange exchange) {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        int attempts = exchange.getIn().getHeader(Exchange.REDELIVERY_COUNTER, 0, Integer.class) + 1;
        ReceivedInput input = InputExchange.input(exchange);
        String reason = "processing failed after " + attempts + (attempts == 1 ? " attempt: " : " attempts: ")
                + Failures.describe(failure);
        // the reason names the failure; its stack trace only at DEBUG, so that a burst of poison cannot flood the log
        LOG.error("dead-lettering {} input {}: {}", input.source().label(), LogValue.of(input.sourceRef()),
                LogValue.text(reason));
        LOG.debug("failure of {} input {}", input.source().label(), LogValue.of(input.sourceRef()), failure);
        InputExchange.fail(exchange, new DeadLetter(RejectionReason.PROCESSING_FAILED, reason));
    }
}
