package io.claimguard.observe;

import io.claimguard.domain.Finding;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Outcome;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.support.LogValue;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * One INFO line per audited input, with counts and codes only: claims can hold customer data, so no claim
 * text, detail or rationale is logged. Every value taken from the input (request id, source reference, the labels as
 * received) is a {@link LogValue}: no input can split the line or add a field to it.
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
                LogValue.of(verification.requestId()),
                InputExchange.auditId(exchange),
                LogValue.of(instanceId),
                input.source().label(),
                LogValue.of(input.sourceRef()),
                guard.effectiveVerdict(),
                guard.modelVerdict().map(Verdict::name).orElse("invalid"),
                guard.downgraded(),
                guard.reasonCodes(),
                verification.projection().mode().label(),
                verification.projection().claims().size(),
                criticalClaims(verification.projection().claims()),
                claimLabels(verification.projection().claims()),
                legacyFactsSummary(verification.projection().factsChecked()),
                findingCodes(verification));
    }

    /**
     * The distinct finding codes in the order first found, as one token without spaces ({@code [a,b]}, {@code []}):
     * a hostile input with thousands of findings still makes a short line; the counters count each finding.
     */
    static String findingCodes(Verification verification) {
        Set<FindingCode> found = EnumSet.noneOf(FindingCode.class);
        StringBuilder codes = new StringBuilder("[");
        for (Finding finding : verification.findings()) {
            if (found.add(finding.code())) {
                codes.append(codes.length() > 1 ? "," : "").append(finding.code().code());
            }
        }
        return codes.append(']').toString();
    }

    private static int criticalClaims(List<ProjectedClaim> claims) {
        int critical = 0;
        for (ProjectedClaim claim : claims) {
            critical += claim.critical() ? 1 : 0;
        }
        return critical;
    }

    /** The V2 labels as received, counted: {@code {direct_observation=1, external_unknown=1}}. */
    private static String claimLabels(List<ProjectedClaim> claims) {
        String[] labels = new String[claims.size()];
        for (int i = 0; i < labels.length; i++) {
            String label = claims.get(i).verification();
            labels[i] = label == null ? "absent" : LogValue.of(label);
        }
        return countedInOrder(labels);
    }

    /** The summary existing log searches know: the effective facts_checked list, by label and criticality. */
    private static String legacyFactsSummary(JsonNode factsChecked) {
        if (!factsChecked.isArray()) {
            return "{not_a_list}";
        }
        String[] labels = new String[factsChecked.size()];
        int critical = 0;
        for (int i = 0; i < labels.length; i++) {
            JsonNode fact = factsChecked.get(i);
            JsonNode label = fact.path("verification");
            labels[i] = label.isString() ? LogValue.of(label.stringValue()) : "absent";
            critical += fact.path("is_critical").asBoolean(false) ? 1 : 0;
        }
        return "{total=" + labels.length + ", critical=" + critical + ", labels=" + countedInOrder(labels) + "}";
    }

    /**
     * Each distinct label with its count, in label order, written as a sorted map prints itself ({@code {a=2, b=1}}):
     * the format log searches know, without a map per input (a line is written for every input).
     */
    static String countedInOrder(String[] labels) {
        Arrays.sort(labels);
        StringBuilder counted = new StringBuilder("{");
        for (int i = 0; i < labels.length; ) {
            int next = i + 1;
            while (next < labels.length && labels[next].equals(labels[i])) {
                next++;
            }
            counted.append(i > 0 ? ", " : "").append(labels[i]).append('=').append(next - i);
            i = next;
        }
        return counted.append('}').toString();
    }
}
