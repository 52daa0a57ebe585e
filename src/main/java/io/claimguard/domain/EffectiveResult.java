package io.claimguard.domain;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The effective result that consumers receive: the guarded verdict under the old {@code verdict} key, the
 * model's verdict beside it, and the legacy {@code facts_checked} list; after the contract's fields, what checking
 * the verifier's evidence and consistency found ({@code findings}).
 */
public final class EffectiveResult {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    /** How the result begins before its audit row exists: {@code audit_id} is always its first field. */
    private static final String NO_AUDIT_ID = "{\"audit_id\":null";

    private EffectiveResult() {
    }

    /**
     * The effective result as a JSON object.
     *
     * @param auditId the audit row's id, or null while the row does not exist yet
     */
    public static ObjectNode toNode(Verification verification, Long auditId) {
        ObjectNode output = verification.envelope().verifierOutput();
        GuardDecision guard = verification.guard();
        ObjectNode result = NODES.objectNode();
        if (auditId == null) {
            result.putNull("audit_id");
        } else {
            result.put("audit_id", auditId.longValue());
        }
        result.put("request_id", verification.requestId());
        result.put("verdict", guard.effectiveVerdict().name());
        result.put("model_verdict", guard.modelVerdict().map(Verdict::name).orElse(null));
        ObjectNode verdictGuard = result.putObject("verdict_guard");
        verdictGuard.put("downgraded", guard.downgraded());
        ArrayNode reasons = verdictGuard.putArray("reasons");
        for (GuardReason reason : guard.reasons()) {
            reasons.addObject()
                    .put("code", reason.code())
                    .put("cap", reason.cap().name())
                    .put("detail", reason.detail());
        }
        result.put("projection_mode", verification.projection().mode().label());
        result.set("groundedness_score", asReceived(output.get("groundedness_score")));
        result.set("critical_fact_count", asReceived(output.get("critical_fact_count")));
        result.set("claim_checks", listAsReceived(output.get("claim_checks")));
        result.set("hypothesis_checks", listAsReceived(output.get("hypothesis_checks")));
        result.set("facts_checked", verification.projection().factsChecked());
        result.set("rationale", asReceived(output.get("rationale")));
        ArrayNode findings = result.putArray("findings");
        for (Finding finding : verification.findings()) {
            findings.addObject()
                    .put("code", finding.code().code())
                    .put("claim_ordinal", finding.claimOrdinal())
                    .put("detail", finding.detail());
        }
        return result;
    }

    public static String toJson(Verification verification, Long auditId) {
        return toJson(toNode(verification, auditId));
    }

    /** A result {@link #toNode} built, as it is forwarded. */
    public static String toJson(ObjectNode result) {
        return MAPPER.writeValueAsString(result);
    }

    /**
     * The result {@link #toJson} wrote without an audit id ({@code "audit_id":null} first), with the id filled in:
     * the same text {@code toJson(verification, auditId)} writes, without serialising the result a second time.
     */
    public static String withAuditId(String withoutAuditId, long auditId) {
        if (!withoutAuditId.startsWith(NO_AUDIT_ID)) {
            throw new IllegalArgumentException("not an effective result without an audit id: it must begin with "
                    + NO_AUDIT_ID);
        }
        return "{\"audit_id\":" + auditId + withoutAuditId.substring(NO_AUDIT_ID.length());
    }

    private static JsonNode asReceived(JsonNode node) {
        return node == null ? NODES.nullNode() : node;
    }

    /** Carried exactly as received; an absent or null list reads as empty. */
    private static JsonNode listAsReceived(JsonNode node) {
        return Json.isAbsent(node) ? NODES.arrayNode() : node;
    }
}
