package io.claimguard.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.config.TestProperties;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Policy;
import io.claimguard.domain.RejectionReason;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Outcome;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.signing.ResultSignatures;
import io.claimguard.signing.ResultSigningRoute;
import io.claimguard.telemetry.InputTelemetry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The verify routes, their retry policy and the signing step as they ship, with the audit, forward and dead-letter steps replaced by
 * stand-ins that fail as a test scripts them: one test per branch of the error handling.
 */
class FailurePoliciesTest {

    private static final int MAX_RETRIES = 3;
    private static final String INTAKE = "direct:test-intake";
    private static final byte[] ENVELOPE = """
            {"request_id":"req-policies","verifier_output":{"verdict":"PASS","facts_checked":[]}}"""
            .getBytes(StandardCharsets.UTF_8);

    private final Deque<Exception> auditFailures = new ArrayDeque<>();
    private final Deque<Exception> forwardFailures = new ArrayDeque<>();
    private final AtomicInteger auditAttempts = new AtomicInteger();
    private final AtomicInteger forwardAttempts = new AtomicInteger();
    private final List<DeadLetter> deadLetters = Collections.synchronizedList(new ArrayList<>());
    private final List<Outcome> setAside = Collections.synchronizedList(new ArrayList<>());
    private CamelContext camel;

    @BeforeEach
    void startRoutes() throws Exception {
        ClaimGuardProperties properties = TestProperties.claimGuard("claimguard.instance-id=test-instance",
                "claimguard.processing.max-retries=" + MAX_RETRIES, "claimguard.processing.retry-delay=1ms",
                "claimguard.processing.outage-retry-delay=1ms", "claimguard.processing.outage-max-retry-delay=5ms");
        PipelineObserver observer = new PipelineObserver(new SimpleMeterRegistry(), properties, InputTelemetry.OFF);
        camel = new DefaultCamelContext();
        camel.addRoutes(new RetryPolicy(properties));
        camel.addRoutes(new VerificationRoute(new EnvelopeReader(Limits.DEFAULTS), Policy.CONTRACT, observer));
        KeyPair key = Ed25519Keys.generate();
        camel.addRoutes(new ResultSigningRoute(new ResultSignatures.Signer(
                new Ed25519Keys.SigningKey(key.getPrivate(), key.getPublic()))));
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(Pipeline.AUDIT).process(exchange -> {
                    auditAttempts.incrementAndGet();
                    failIfScripted(auditFailures);
                    InputExchange.audited(exchange, 42, true);
                });
                from(Pipeline.FORWARD).process(exchange -> {
                    forwardAttempts.incrementAndGet();
                    failIfScripted(forwardFailures);
                });
                from(Pipeline.DEAD_LETTER).process(exchange -> deadLetters.add(InputExchange.deadLetter(exchange)));
                // an intake as the real ones are built: verify, then set aside what was
                from(INTAKE)
                        .process(exchange -> InputExchange.receive(exchange, new ReceivedInput(
                                ReceivedInput.Source.FILE, "test.json", OffsetDateTime.now(), exchange.getIn().getBody(byte[].class), null, null)))
                        .to(Pipeline.VERIFY)
                        .filter(InputExchange.SET_ASIDE)
                            .process(exchange -> setAside.add(InputExchange.outcome(exchange)));
            }
        });
        camel.start();
    }

    @AfterEach
    void stopRoutes() {
        camel.stop();
    }

    @Test
    @DisplayName("Scenario: An outage makes the input wait, retried until the database answers again")
    void outageIsRetriedWithoutGivingUp() {
        for (int i = 0; i < 3 * MAX_RETRIES; i++) {
            auditFailures.add(new SQLException("connection refused", "08001"));
        }

        Exchange done = process(ENVELOPE);

        assertThat(auditAttempts).hasValue(3 * MAX_RETRIES + 1);
        assertThat(InputExchange.outcome(done)).isEqualTo(Outcome.AUDITED);
        assertThat(forwardAttempts).hasValue(1);
        assertThat(deadLetters).isEmpty();
        assertThat(setAside).isEmpty();
    }

    @Test
    @DisplayName("Scenario: A data refusal before the audit commit is dead-lettered after one attempt")
    void refusalIsDeadLetteredAtOnce() {
        auditFailures.add(new SQLException("new row violates check constraint", "23514"));

        Exchange done = process(ENVELOPE);

        assertThat(auditAttempts).hasValue(1);
        assertThat(InputExchange.outcome(done)).isEqualTo(Outcome.FAILED);
        assertThat(deadLetters).singleElement().satisfies(deadLetter -> {
            assertThat(deadLetter.reason()).isEqualTo(RejectionReason.PROCESSING_FAILED);
            assertThat(deadLetter.detail()).startsWith("processing failed after 1 attempt: SQLException: new row violates");
        });
        assertThat(setAside).containsExactly(Outcome.FAILED);
        assertThat(forwardAttempts).hasValue(0);
    }

    @Test
    @DisplayName("Scenario: A failure that outlasts its retries is dead-lettered after max-retries + 1 attempts")
    void exhaustedRetriesAreDeadLettered() {
        for (int i = 0; i <= MAX_RETRIES; i++) {
            auditFailures.add(new IllegalStateException("writer broke"));
        }

        Exchange done = process(ENVELOPE);

        assertThat(auditAttempts).hasValue(MAX_RETRIES + 1);
        assertThat(InputExchange.outcome(done)).isEqualTo(Outcome.FAILED);
        assertThat(deadLetters).singleElement().extracting(DeadLetter::detail).asString()
                .isEqualTo("processing failed after 4 attempts: IllegalStateException: writer broke");
        assertThat(setAside).containsExactly(Outcome.FAILED);
    }

    @Test
    @DisplayName("Scenario: A failure the retries cure leaves no trace")
    void curedFailureIsAudited() {
        auditFailures.add(new IllegalStateException("writer hiccup"));

        Exchange done = process(ENVELOPE);

        assertThat(auditAttempts).hasValue(2);
        assertThat(InputExchange.outcome(done)).isEqualTo(Outcome.AUDITED);
        assertThat(deadLetters).isEmpty();
        assertThat(setAside).isEmpty();
    }

    @Test
    @DisplayName("Scenario: A failure after the audit commit fails the intake, so that the input comes again")
    void failureAfterCommitIsNotDeadLettered() {
        for (int i = 0; i <= MAX_RETRIES; i++) {
            forwardFailures.add(new IllegalStateException("output queue unavailable"));
        }

        assertThatThrownBy(() -> process(ENVELOPE))
                .isInstanceOf(CamelExecutionException.class)
                .hasRootCauseMessage("output queue unavailable");
        assertThat(auditAttempts).as("the commit is not repeated").hasValue(1);
        assertThat(forwardAttempts).hasValue(MAX_RETRIES + 1);
        assertThat(deadLetters).isEmpty();
        assertThat(setAside).isEmpty();
    }

    @Test
    @DisplayName("Scenario: A rejected input is set aside by its intake without any failure")
    void rejectionIsSetAside() {
        Exchange done = process("not json".getBytes(StandardCharsets.UTF_8));

        assertThat(InputExchange.outcome(done)).isEqualTo(Outcome.REJECTED);
        assertThat(deadLetters).singleElement().extracting(DeadLetter::reason).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(setAside).containsExactly(Outcome.REJECTED);
        assertThat(auditAttempts).hasValue(0);
    }

    private Exchange process(byte[] input) {
        Exchange exchange = camel.createProducerTemplate().send(INTAKE, e -> e.getIn().setBody(input));
        if (exchange.getException() != null) {
            throw new CamelExecutionException("intake failed", exchange, exchange.getException());
        }
        return exchange;
    }

    private static void failIfScripted(Deque<Exception> failures) throws Exception {
        Exception failure = failures.poll();
        if (failure != null) {
            throw failure;
        }
    }
}
