package io.claimguard.observe;

import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Outcome;
import io.claimguard.pipeline.ReceivedInput;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * One INFO line per audited input, with counts and codes only: claims can hold customer data, so no claim
 * text, detail or rationale is logged.
 */
final class AuditSummaryLog {

    private static final Logger LOG = LoggerFactory.getLogger("io.claimguard.audit.summary");

    private AuditSummaryLog() {
    }

    static void log(Exchange exchange, String instanceId) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        ReceivedInput input = InputExchange.input(exchange);
        Verification verification = InputExchange.verification(exchange);
        GuardDecision guard = verification.guard();
        LOG.info("{} request_id={} audit_id={} instance_id={} source={} source_ref={} verdict={} model_verdict={} downgraded={}"
                        + " guard_reasons={} projection_mode={} claims={} critical_claims={} claim_verifications={}"
                        + " facts_checked={} findings={}",
                InputExchange.outcome(exchange) == Outcome.DUPLICATE ? "duplicate" : "audited",
                verification.requestId(),
                InputExchange.auditId(exchange),
                instanceId,
                input.source().label(),
                input.sourceRef(),
                guard.effectiveVerdict(),
                guard.modelVerdict().map(Verdict::name).orElse("invalid"),
                guard.downgraded(),
                guard.reasonCodes(),
                verification.projection().mode().label(),
                verification.projection().claims().size(),
                verification.projection().claims().stream().filter(ProjectedClaim::critical).count(),
                count(verification, claim -> claim.verification() == null ? "absent" : claim.verification()),
                legacyFactsSummary(verification.projection().factsChecked()),
                findingCodes(verification));
    }

    /**
     * The distinct finding codes in the order first found, as one token without spaces ({@code [a,b]}, {@code []}):
     * a hostile input with thousands of findings still makes a short line; the counters count each finding.
     */
    static String findingCodes(Verification verification) {
        return verification.findings().stream().map(finding -> finding.code().code()).distinct()
                .collect(Collectors.joining(",", "[", "]"));
    }

    /** The summary existing log searches know: the effective facts_checked list, by label and criticality. */
    private static String legacyFactsSummary(JsonNode factsChecked) {
        if (!factsChecked.isArray()) {
            return "{not_a_list}";
        }
        Map<String, Long> byLabel = new TreeMap<>();
        long critical = 0;
        for (JsonNode fact : factsChecked) {
            JsonNode label = fact.path("verification");
            byLabel.merge(label.isString() ? label.stringValue() : "absent", 1L, Long::sum);
            if (fact.path("is_critical").asBoolean(false)) {
                critical++;
            }
        }
        return "{total=" + factsChecked.size() + ", critical=" + critical + ", labels=" + byLabel + "}";
    }

    private static Map<String, Long> count(Verification verification, Function<ProjectedClaim, String> label) {
        return verification.projection().claims().stream()
                .collect(Collectors.groupingBy(label, TreeMap::new, Collectors.counting()));
    }

}
