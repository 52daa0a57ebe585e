package io.claimguard.audit;

import io.claimguard.domain.Finding;
import io.claimguard.domain.ProjectedClaim;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/**
 * The parameter and the result of {@link AuditSql#INSERT_VERIFICATIONS}: a batch of audit records as one JSON
 * array, and one {@link Outcome} per record read back from the rows the statement returns.
 */
public final class AuditBatchStatement {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HexFormat HEX = HexFormat.of();

    /**
     * What became of one record.
     *
     * @param auditId its audit row's id, or null when an identical input committed concurrently (retry to see it)
     * @param created whether this statement created the row (false for an input audited before)
     * @param redriveOf the dead letter the created row records it was re-driven from; null for an input audited
     *     before, and for a re-drive naming no dead letter
     */
    record Outcome(Long auditId, boolean created, Long redriveOf) {
    }

    private AuditBatchStatement() {
    }

    /** The statement's named parameters. */
    static Map<String, Object> parameters(List<AuditRecord> records) {
        ArrayNode batch = NODES.arrayNode(records.size());
        for (int i = 0; i < records.size(); i++) {
            AuditRecord record = records.get(i);
            ObjectNode row = batch.addObject()
                    .put("idx", i)
                    .put("request_id", record.requestId())
                    .put("source", record.source())
                    .put("source_ref", record.sourceRef())
                    .put("received_at", record.receivedAt().toString())
                    .put("model_verdict", record.modelVerdict())
                    .put("effective_verdict", record.effectiveVerdict())
                    .put("downgraded", record.downgraded())
                    .put("projection_mode", record.projectionMode())
                    .put("groundedness_score", record.groundednessScore())
                    .put("critical_fact_count", record.criticalFactCount())
                    .put("input_sha256", HEX.formatHex(record.inputSha256()))
                    .put("redrive_of", record.redriveOf())
                    .put("policy", record.policy())
                    // the documents as they are, not as JSON strings: PostgreSQL parses each once, with the batch
                    .putRawValue("envelope", new RawValue(record.envelopeJson()))
                    .putRawValue("effective_result", new RawValue(record.effectiveResultJson()));
            ArrayNode reasons = row.putArray("guard_reasons");
            record.guardReasons().forEach(reasons::add);
            row.set("claims", claimRows(record.claims()));
            row.set("findings", findingRows(record.findings()));
        }
        return Map.of("batch", StorableJson.MAPPER.writeValueAsString(batch));
    }

    /**
     * The claim_check rows of one input as a JSON array, one object per claim with the columns'
     * names, as the statement reads them with {@code jsonb_to_recordset}.
     */
    public static ArrayNode claimRows(List<ProjectedClaim> claims) {
        ArrayNode rows = NODES.arrayNode(claims.size());
        for (ProjectedClaim claim : claims) {
            rows.addObject()
                    .put("ordinal", claim.ordinal())
                    .put("claim_id", claim.claimId())
                    .put("claim_text", claim.claimText())
                    .put("claim_type", claim.claimType())
                    .put("verification", claim.verification())
                    .put("legacy_verification", claim.legacyVerification().label())
                    .put("is_critical", claim.critical())
                    .put("detail", claim.detail())
                    .set("evidence_refs", claim.evidenceRefs());
        }
        return rows;
    }

    /**
     * The finding rows of one input as a JSON array, one object per finding with the columns' names, its position in
     * the list as its {@code ordinal}, as the statement reads them with {@code jsonb_to_recordset}.
     */
    public static ArrayNode findingRows(List<Finding> findings) {
        ArrayNode rows = NODES.arrayNode(findings.size());
        for (int ordinal = 0; ordinal < findings.size(); ordinal++) {
            Finding finding = findings.get(ordinal);
            rows.addObject()
                    .put("ordinal", ordinal)
                    .put("claim_ordinal", finding.claimOrdinal())
                    .put("code", finding.code().code())
                    .put("detail", finding.detail());
        }
        return rows;
    }

    /**
     * Reads the returned rows ({@code idx}, {@code audit_id}, {@code created}, {@code redrive_of}) into one outcome
     * per record.
     */
    static List<Outcome> outcomes(List<?> rows, int records) {
        if (rows == null || rows.size() != records) {
            throw new IllegalStateException("the audit statement returned " + (rows == null ? 0 : rows.size())
                    + " rows for " + records + " inputs");
        }
        List<Outcome> outcomes = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            Map<?, ?> row = (Map<?, ?>) rows.get(i);
            int idx = ((Number) row.get("idx")).intValue();
            if (idx != i) {
                throw new IllegalStateException("the audit statement returned row " + idx + " at position " + i);
            }
            Number auditId = (Number) row.get("audit_id");
            Number redriveOf = (Number) row.get("redrive_of");
            outcomes.add(new Outcome(auditId == null ? null : auditId.longValue(), Boolean.TRUE.equals(row.get("created")),
                    redriveOf == null ? null : redriveOf.longValue()));
        }
        return outcomes;
    }
}
