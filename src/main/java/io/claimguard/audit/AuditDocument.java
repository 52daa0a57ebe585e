package io.claimguard.audit;

import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads back what the audit writer ({@link AuditBatchStatement#auditDocument}) stored in {@code verification_audit.audit}: the envelope as
 * received with ClaimGuard's effective result added under {@code effective_result}, or under
 * {@code claimguard_effective_result} when the envelope had an {@code effective_result} of its own.
 */
public final class AuditDocument {

    static final String EFFECTIVE_RESULT = "effective_result";
    static final String OWN_EFFECTIVE_RESULT = "claimguard_effective_result";

    // numbers as stored: a decimal read as a double could round a score across a rule's boundary
    private static final JsonMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private AuditDocument() {
    }

    /**
     * The envelope of an audit document, as JSON text: the document without the key ClaimGuard added. That key is
     * {@code claimguard_effective_result} when it holds ClaimGuard's result for this row (its {@code audit_id} is the
     * row's id), else {@code effective_result}. Only an envelope that carried a {@code claimguard_effective_result}
     * already naming its own future audit id could be mistaken, and the statement never lets an envelope keep a
     * {@code claimguard_effective_result} beside its own {@code effective_result} anyway.
     *
     * @throws IllegalArgumentException when the document is not a JSON object holding an effective result
     */
    public static String envelope(long auditId, String document) {
        if (!(EXACT.readTree(document) instanceof ObjectNode envelope)) {
            throw new IllegalArgumentException("audit " + auditId + ": the audit document is not a JSON object");
        }
        JsonNode own = envelope.get(OWN_EFFECTIVE_RESULT);
        boolean ownKey = own != null && own.path("audit_id").isIntegralNumber() && own.path("audit_id").asLong() == auditId;
        if (envelope.remove(ownKey ? OWN_EFFECTIVE_RESULT : EFFECTIVE_RESULT) == null) {
            throw new IllegalArgumentException("audit " + auditId + ": the audit document holds no effective result");
        }
        return EXACT.writeValueAsString(envelope);
    }
}
