package io.claimguard.audit;

import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.ingest.ReceivedInput;
import io.claimguard.verify.Outcome;
import io.claimguard.verify.Pipeline;
import java.sql.SQLTransientException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.component.jdbc.JdbcConstants;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Thin adapters between the pipeline and camel-jdbc: each {@code prepare...} method puts one statement in the
 * body and its parameters in {@code CamelJdbcParameters}; {@link #readAuditRow} reads what the insert returned.
 */
public final class AuditStatements {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AuditStatements() {
    }

    public static void prepareVerificationInsert(Exchange exchange) {
        ReceivedInput input = exchange.getProperty(Pipeline.INPUT, ReceivedInput.class);
        Verification verification = exchange.getProperty(Pipeline.VERIFICATION, Verification.class);
        JsonNode output = verification.envelope().verifierOutput();
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("request_id", verification.requestId());
        parameters.put("source", input.source());
        parameters.put("source_ref", Text.storable(input.sourceRef()));
        parameters.put("received_at", input.receivedAt());
        parameters.put("model_verdict", verification.guard().modelVerdict().map(Verdict::name).orElse(null));
        parameters.put("effective_verdict", verification.guard().effectiveVerdict().name());
        parameters.put("downgraded", verification.guard().downgraded());
        parameters.put("guard_reasons", JSON.writeValueAsString(verification.guard().reasonCodes()));
        parameters.put("projection_mode", verification.projection().mode().label());
        parameters.put("groundedness_score", groundednessScore(output.get("groundedness_score")));
        parameters.put("critical_fact_count", criticalFactCount(output.get("critical_fact_count")));
        parameters.put("input_sha256", Sha256.of(input.payload()));
        parameters.put("envelope", verification.envelope().json());
        parameters.put("effective_result", EffectiveResult.toJson(verification, null));
        parameters.put("claims", claimRows(verification.projection().claims()));
        exchange.getIn().setHeader(JdbcConstants.JDBC_PARAMETERS, parameters);
        exchange.getIn().setBody(AuditSql.INSERT_VERIFICATION);
    }

    /** Reads the audit id back and makes the effective result, with that id, the body to forward. */
    public static void readAuditRow(Exchange exchange) throws SQLTransientException {
        List<?> rows = exchange.getIn().getBody(List.class);
        if (rows == null || rows.isEmpty()) {
            // An identical input committed between this statement's snapshot and its insert: running the
            // statement again (the audit route is retried whole) sees it.
            throw new ConcurrentDuplicateException();
        }
        Map<?, ?> row = (Map<?, ?>) rows.get(0);
        long auditId = ((Number) row.get("audit_id")).longValue();
        boolean created = Boolean.TRUE.equals(row.get("created"));
        Verification verification = exchange.getProperty(Pipeline.VERIFICATION, Verification.class);
        exchange.setProperty(Pipeline.AUDIT_ID, auditId);
        exchange.setProperty(Pipeline.OUTCOME, created ? Outcome.AUDITED : Outcome.DUPLICATE);
        exchange.getIn().removeHeader(JdbcConstants.JDBC_PARAMETERS);
        exchange.getIn().setBody(EffectiveResult.toJson(verification, auditId));
    }

    public static void prepareDeadLetterInsert(Exchange exchange, String reasonCode, String reason) {
        ReceivedInput input = exchange.getProperty(Pipeline.INPUT, ReceivedInput.class);
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("source", input.source());
        parameters.put("source_ref", Text.storable(input.sourceRef()));
        parameters.put("received_at", input.receivedAt());
        parameters.put("reason_code", reasonCode);
        parameters.put("reason", Text.storable(reason));
        parameters.put("payload", input.payload());
        parameters.put("payload_sha256", Sha256.of(input.payload()));
        exchange.setProperty(Pipeline.DEAD_LETTER_CODE, reasonCode);
        exchange.setProperty(Pipeline.DEAD_LETTER_REASON, reasonCode + ": " + reason);
        exchange.getIn().setHeader(JdbcConstants.JDBC_PARAMETERS, parameters);
        exchange.getIn().setBody(AuditSql.INSERT_DEAD_LETTER);
    }

    private static String claimRows(List<ProjectedClaim> claims) {
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
        return JSON.writeValueAsString(rows);
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

    /** Raised when an identical input won a race; an outage-class failure, so the input is simply retried. */
    static final class ConcurrentDuplicateException extends SQLTransientException {
        ConcurrentDuplicateException() {
            super("an identical input was committed concurrently; retrying to read its audit row");
        }
    }
}
