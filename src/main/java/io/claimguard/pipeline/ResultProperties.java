package io.claimguard.pipeline;

import io.claimguard.domain.Verification;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * The properties every effective result carries on the output queue, for consumers' selectors and to check who made
 * it: one definition for each way a result is sent (one at a time, or in a JMS batch's transaction) and, as headers,
 * for the Kafka output topic.
 */
public final class ResultProperties {

    public static final String AUDIT_ID = "ClaimGuardAuditId";
    public static final String REQUEST_ID = "ClaimGuardRequestId";
    public static final String VERDICT = "ClaimGuardVerdict";
    /** The id of the key that signed the result ({@link SignedResult#keyId()}). */
    public static final String SIGNATURE_KEY_ID = "ClaimGuardSignatureKeyId";
    /** The Ed25519 signature of the result's UTF-8 bytes, in base64 ({@link SignedResult#signature()}). */
    public static final String SIGNATURE = "ClaimGuardSignature";

    private ResultProperties() {
    }

    /** The properties of an audited and signed input's result, by name. */
    public static Map<String, Object> of(Exchange exchange) {
        Verification verification = InputExchange.verification(exchange);
        SignedResult signed = InputExchange.signedResult(exchange);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(AUDIT_ID, InputExchange.auditId(exchange));
        properties.put(REQUEST_ID, verification.requestId());
        properties.put(VERDICT, verification.guard().effectiveVerdict().name());
        properties.put(SIGNATURE_KEY_ID, signed.keyId());
        properties.put(SIGNATURE, signed.signature());
        return properties;
    }
}
