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

    /**
     * A result {@link #toNode} built, as it is forwarded: text whose UTF-8 bytes decode back to the same text, so
     * that every consumer (a JMS text, a Kafka value, a file) reads exactly the bytes its signature covers. A lone
     * surrogate, which valid JSON may carry as an escape but UTF-8 cannot encode, is written as its JSON escape
     * (backslash, u, four hex digits) again: the same value, in a form every path keeps.
     */
    public static String toJson(ObjectNode result) {
        return escapeLoneSurrogates(MAPPER.writeValueAsString(result));
    }

    /**
     * The JSON text with every lone surrogate written as its escape; the text itself when it has none (almost always).
     * A surrogate can stand only inside a string or a name of JSON text, where its escape means the same character.
     */
    static String escapeLoneSurrogates(String json) {
        int first = firstLoneSurrogate(json, 0);
        if (first < 0) {
            return json;
        }
        StringBuilder escaped = new StringBuilder(json.length() + 16).append(json, 0, first);
        for (int i = first; i < json.length(); i++) {
            char c = json.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < json.length() && Character.isLowSurrogate(json.charAt(i + 1))) {
                escaped.append(c).append(json.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                escaped.append(String.format("\\u%04x", (int) c));
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /** Whether the text has no lone surrogate, so that its UTF-8 bytes decode back to the same text. */
    public static boolean isWellFormed(String text) {
        return firstLoneSurrogate(text, 0) < 0;
    }

    /** The index of the first surrogate that is not half of a pair, from {@code from}; -1 when there is none. */
    private static int firstLoneSurrogate(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return -1;
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
