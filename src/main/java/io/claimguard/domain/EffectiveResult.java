package io.claimguard.domain;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The effective result that consumers receive: the guarded verdict under the old {@code verdict} key, the
 * model's verdict beside it, and the legacy {@code facts_checked} list.
 */
public final class EffectiveResult {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

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
        return result;
    }

    public static String toJson(Verification verification, Long auditId) {
        return MAPPER.writeValueAsString(toNode(verification, auditId));
    }

    private static JsonNode asReceived(JsonNode node) {
        return node == null ? NODES.nullNode() : node;
    }

    /** Carried exactly as received; an absent or null list reads as empty. */
    private static JsonNode listAsReceived(JsonNode node) {
        return Json.isAbsent(node) ? NODES.arrayNode() : node;
    }
}
