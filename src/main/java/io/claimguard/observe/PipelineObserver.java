package io.claimguard.observe;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.Finding;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.GuardReason;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Outcome;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.telemetry.InputTelemetry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.apache.camel.Exchange;
import org.springframework.stereotype.Component;

/**
 * What operators see of the pipeline: one summary log line and the counters per audited input (its verdicts, guard
 * reasons and findings), the counters per dead letter, the end-to-end processing time, and (when on) each input's
 * span and evaluation events in OpenTelemetry. The routes call it; it never changes an exchange.
 */
@Component
public class PipelineObserver {

    private final MeterRegistry registry;
    private final String instanceId;
    private final InputTelemetry telemetry;

    public PipelineObserver(MeterRegistry registry, ClaimGuardProperties properties, InputTelemetry telemetry) {
        this.registry = registry;
        this.instanceId = properties.instanceName();
        // every code is scraped from the start, at 0 until found: a rate or an alert per code needs no first finding
        for (FindingCode code : FindingCode.values()) {
            findings(code);
        }
        this.telemetry = telemetry;
    }

    /** After an input's audit rows are committed (or found to exist already). */
    public void audited(Exchange exchange) {
        String source = InputExchange.input(exchange).source().label();
        Verification verification = InputExchange.verification(exchange);
        Outcome outcome = InputExchange.outcome(exchange);
        AuditSummaryLog.log(exchange, instanceId);
        if (outcome == Outcome.DUPLICATE) {
            counter("claimguard.duplicates", "Byte-identical inputs that made no new audit row", "source", source)
                    .increment();
            return;
        }
        GuardDecision guard = verification.guard();
        counter("claimguard.audited", "Inputs audited, by effective and by model verdict",
                "source", source,
                "verdict", guard.effectiveVerdict().name(),
                "model_verdict", guard.modelVerdict().map(Verdict::name).orElse("invalid"),
                "projection_mode", verification.projection().mode().label())
                .increment();
        for (GuardReason reason : guard.reasons()) {
            counter("claimguard.guard.reasons", "Guard rules that fired, whether or not they changed the verdict",
                    "reason", reason.code()).increment();
            if (guard.downgraded()) {
                counter("claimguard.downgrades", "Downgraded inputs, once per guard reason that fired on them",
                        "reason", reason.code()).increment();
            }
        }
        for (Finding finding : verification.findings()) {
            findings(finding.code()).increment();
        }
    }

    /** After a rejected or failed input's dead_letter row is committed. */
    public void deadLettered(Exchange exchange) {
        String source = InputExchange.input(exchange).source().label();
        DeadLetter deadLetter = InputExchange.deadLetter(exchange);
        counter("claimguard.dead.letters", "Inputs recorded in claimguard.dead_letter",
                "source", source, "reason", deadLetter.reason().code()).increment();
        if (InputExchange.outcome(exchange) == Outcome.REJECTED) {
            counter("claimguard.rejections", "Inputs rejected as not an acceptable envelope",
                    "source", source, "reason", deadLetter.reason().code()).increment();
        }
    }

    /** When a batching intake (JMS, Kafka) took a batch of this many inputs, acknowledged together. */
    public void batchTaken(ReceivedInput.Source source, int size) {
        DistributionSummary.builder("claimguard.intake.batch.size")
                .description("Inputs an intake took in one batch: one JMS transaction, or one Kafka offset commit")
                .tags("source", source.label())
                .baseUnit("messages")
                .register(registry)
                .record(size);
    }

    /** When an input is done with: audited and forwarded, or set aside. */
    public void completed(Exchange exchange) {
        ReceivedInput input = InputExchange.input(exchange);
        Outcome outcome = InputExchange.outcome(exchange);
        Timer.builder("claimguard.processing")
                .description("From taking an input to having audited and forwarded it, or set it aside")
                .tags("source", input.source().label(), "outcome", outcome == null ? "unknown" : outcome.name().toLowerCase())
                .publishPercentileHistogram()
                .register(registry)
                .record(Duration.between(input.receivedAt(), OffsetDateTime.now()));
        telemetry.completed(exchange);
    }

    private Counter findings(FindingCode code) {
        return counter("claimguard.findings", "Findings of audited inputs, one per finding, by finding code",
                "code", code.code());
    }

    private Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }
}
