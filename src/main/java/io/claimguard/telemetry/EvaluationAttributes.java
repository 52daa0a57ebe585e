package io.claimguard.telemetry;

import io.claimguard.domain.Finding;
import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.ReceivedInput;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The attributes of the {@code gen_ai.evaluation.result} events, by the OpenTelemetry GenAI semantic conventions and,
 * for what ClaimGuard knows beyond them, under {@code claimguard.}. Codes, labels and ids only: never a claim's text,
 * detail or rationale, which can hold customer data.
 */
final class EvaluationAttributes {

    /** The event name the semantic conventions fix. */
    static final String EVENT_NAME = "gen_ai.evaluation.result";
    /** The evaluation of an input: its effective verdict. */
    static final String VERDICT_EVALUATION = "claimguard.verdict";
    /** The evaluation of one claim check: its verification label. */
    static final String CLAIM_EVALUATION = "claimguard.claim_verification";

    static final AttributeKey<String> EVALUATION_NAME = AttributeKey.stringKey("gen_ai.evaluation.name");
    static final AttributeKey<String> SCORE_LABEL = AttributeKey.stringKey("gen_ai.evaluation.score.label");
    static final AttributeKey<Double> SCORE_VALUE = AttributeKey.doubleKey("gen_ai.evaluation.score.value");
    static final AttributeKey<String> EXPLANATION = AttributeKey.stringKey("gen_ai.evaluation.explanation");
    static final AttributeKey<String> RESPONSE_ID = AttributeKey.stringKey("gen_ai.response.id");

    static final AttributeKey<Long> AUDIT_ID = AttributeKey.longKey("claimguard.audit_id");
    static final AttributeKey<String> SOURCE = AttributeKey.stringKey("claimguard.source");
    static final AttributeKey<String> MODEL_VERDICT = AttributeKey.stringKey("claimguard.model_verdict");
    static final AttributeKey<Boolean> DOWNGRADED = AttributeKey.booleanKey("claimguard.downgraded");
    static final AttributeKey<List<String>> GUARD_REASONS = AttributeKey.stringArrayKey("claimguard.guard_reasons");
    static final AttributeKey<String> PROJECTION_MODE = AttributeKey.stringKey("claimguard.projection_mode");
    static final AttributeKey<List<String>> FINDINGS = AttributeKey.stringArrayKey("claimguard.findings");

    static final AttributeKey<Long> CLAIM_ORDINAL = AttributeKey.longKey("claimguard.claim.ordinal");
    static final AttributeKey<String> CLAIM_ID = AttributeKey.stringKey("claimguard.claim.claim_id");
    static final AttributeKey<String> CLAIM_TYPE = AttributeKey.stringKey("claimguard.claim.claim_type");
    static final AttributeKey<String> LEGACY_VERIFICATION = AttributeKey.stringKey("claimguard.claim.legacy_verification");
    static final AttributeKey<Boolean> CRITICAL = AttributeKey.booleanKey("claimguard.claim.critical");

    /** The label of a claim check that carries no verification. */
    static final String ABSENT = "absent";

    private EvaluationAttributes() {
    }

    /** The event of one audited input. */
    static Attributes ofInput(Verification verification, long auditId, ReceivedInput.Source source) {
        GuardDecision guard = verification.guard();
        AttributesBuilder attributes = Attributes.builder()
                .put(EVALUATION_NAME, VERDICT_EVALUATION)
                .put(SCORE_LABEL, guard.effectiveVerdict().name())
                .put(EXPLANATION, explanation(guard))
                .put(RESPONSE_ID, verification.requestId())
                .put(AUDIT_ID, auditId)
                .put(SOURCE, source.label())
                .put(MODEL_VERDICT, guard.modelVerdict().map(Verdict::name).orElse("invalid"))
                .put(DOWNGRADED, guard.downgraded())
                .put(GUARD_REASONS, guard.reasonCodes())
                .put(PROJECTION_MODE, verification.projection().mode().label())
                .put(FINDINGS, findingCodes(verification.findings()));
        JsonNode score = verification.envelope().verifierOutput().get("groundedness_score");
        if (score != null && score.isNumber()) {
            attributes.put(SCORE_VALUE, score.doubleValue());
        }
        return attributes.build();
    }

    /** The event of one claim check of an audited input. */
    static Attributes ofClaim(Verification verification, long auditId, ProjectedClaim claim) {
        AttributesBuilder attributes = Attributes.builder()
                .put(EVALUATION_NAME, CLAIM_EVALUATION)
                .put(SCORE_LABEL, claim.verification() == null ? ABSENT : claim.verification())
                .put(RESPONSE_ID, verification.requestId())
                .put(AUDIT_ID, auditId)
                .put(CLAIM_ORDINAL, claim.ordinal())
                .put(LEGACY_VERIFICATION, claim.legacyVerification().label())
                .put(CRITICAL, claim.critical())
                .put(FINDINGS, findingCodes(verification.findings().stream()
                        .filter(finding -> Objects.equals(finding.claimOrdinal(), claim.ordinal())).toList()));
        if (claim.claimId() != null) {
            attributes.put(CLAIM_ID, claim.claimId());
        }
        if (claim.claimType() != null) {
            attributes.put(CLAIM_TYPE, claim.claimType());
        }
        return attributes.build();
    }

    /** Short, and codes only: what a dashboard shows beside the verdict. */
    private static String explanation(GuardDecision guard) {
        return guard.reasons().isEmpty()
                ? "no guard rule fired"
                : "guard: " + String.join(", ", guard.reasonCodes());
    }

    /** Each code once, in the order found. */
    private static List<String> findingCodes(List<Finding> findings) {
        return findings.stream().map(finding -> finding.code().code()).distinct().toList();
    }
}
