package io.claimguard.audit;

import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.Finding;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.ReceivedInput;
import java.time.OffsetDateTime;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The values of one input's {@code verification_audit} row, its {@code claim_check} rows and its {@code finding}
 * rows, before the row has an id. A pure function of the input and its verification, so that the service and the benchmark's raw-JDBC
 * ceiling write exactly the same rows. Text and JSON are as PostgreSQL can store them ({@link Text},
 * {@link StorableJson}): unchanged for all but the rare input carrying U+0000, a lone surrogate or a number
 * beyond {@code numeric}.
 *
 * @param inputSha256 SHA-256 of the input's exact bytes: the unique key that makes a redelivery a no-op
 * @param envelopeJson the envelope as received: exactly one strict JSON object (the reader refuses anything else), so
 *     that the audit document is made by adding one member to its text
 * @param envelopeHasEffectiveResult whether the envelope has a member {@code effective_result} of its own: the
 *     audit document then adds ClaimGuard's as {@code claimguard_effective_result}
 * @param effectiveResultJson the effective result with {@code "audit_id": null}, as stored; the writer puts the
 *     id in
 * @param forwardedResultJson the effective result with {@code "audit_id": null}, as forwarded (values as received);
 *     the same text as {@code effectiveResultJson} for all but the rare result jsonb cannot hold as it is
 * @param findings the input's findings, in order: one {@code finding} row each, its position the row's ordinal
 * @param redriveOf the dead letter the input was re-driven from, as it named it (the statement keeps it only if that
 *     dead letter exists)
 * @param policy the id of the policy that judged it ({@code name@version})
 */
public record AuditRecord(
        String requestId,
        String source,
        String sourceRef,
        OffsetDateTime receivedAt,
        String modelVerdict,
        String effectiveVerdict,
        boolean downgraded,
        List<String> guardReasons,
        String projectionMode,
        Double groundednessScore,
        Integer criticalFactCount,
        byte[] inputSha256,
        String envelopeJson,
        boolean envelopeHasEffectiveResult,
        String effectiveResultJson,
        String forwardedResultJson,
        List<ProjectedClaim> claims,
        List<Finding> findings,
        Long redriveOf,
        String policy) {

    public static AuditRecord of(ReceivedInput input, Verification verification) {
        JsonNode output = verification.envelope().verifierOutput();
        // serialised once, as forwarded; stored as it is unless jsonb cannot hold it
        ObjectNode effective = EffectiveResult.toNode(verification, null);
        String forwarded = EffectiveResult.toJson(effective);
        return new AuditRecord(
                verification.requestId(),
                input.source().label(),
                Text.storable(input.sourceRef()),
                input.receivedAt(),
                verification.guard().modelVerdict().map(Verdict::name).orElse(null),
                verification.guard().effectiveVerdict().name(),
                verification.guard().downgraded(),
                verification.guard().reasonCodes(),
                verification.projection().mode().label(),
                groundednessScore(output.get("groundedness_score")),
                criticalFactCount(output.get("critical_fact_count")),
                Sha256.of(input.payload()),
                StorableJson.text(verification.envelope().root(), verification.envelope().json()),
                verification.envelope().root().has(AuditDocument.EFFECTIVE_RESULT),
                StorableJson.text(effective, forwarded),
                forwarded,
                verification.projection().claims().stream().map(AuditRecord::storable).toList(),
                verification.findings().stream().map(AuditRecord::storable).toList(),
                input.redriveOf(),
                verification.policy().id());
    }

    private static ProjectedClaim storable(ProjectedClaim claim) {
        return new ProjectedClaim(claim.ordinal(), Text.column(claim.claimId()), Text.column(claim.claimText()),
                Text.column(claim.claimType()), Text.column(claim.verification()), claim.knownVerification(),
                claim.legacyVerification(), claim.critical(), Text.column(claim.detail()),
                StorableJson.node(claim.evidenceRefs()));
    }

    /** A detail names values from the envelope, which may hold what the text column cannot. */
    private static Finding storable(Finding finding) {
        return new Finding(finding.code(), finding.claimOrdinal(), Text.storable(finding.detail()));
    }

    /** The score column holds a finite number; anything else stays only in the audit JSON. */
    private static Double groundednessScore(JsonNode score) {
        if (score == null || !score.isNumber()) {
            return null;
        }
        double value = score.doubleValue();
        return Double.isFinite(value) ? value : null;
    }

    private static Integer criticalFactCount(JsonNode count) {
        return count != null && count.isIntegralNumber() && count.canConvertToInt() ? count.intValue() : null;
    }
}
