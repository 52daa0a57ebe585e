package io.claimguard.pipeline;

import io.claimguard.domain.Verification;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * The properties every effective result carries on the output queue, for consumers' selectors: one definition for
 * each way a result is sent (one at a time, or in a JMS batch's transaction).
 */
public final class ResultProperties {

    public static final String AUDIT_ID = "ClaimGuardAuditId";
    public static final String REQUEST_ID = "ClaimGuardRequestId";
    public static final String VERDICT = "ClaimGuardVerdict";

    private ResultProperties() {
    }

    /** The properties of an audited input's result, by name. */
    public static Map<String, Object> of(Exchange exchange) {
        Verification verification = InputExchange.verification(exchange);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(AUDIT_ID, InputExchange.auditId(exchange));
        properties.put(REQUEST_ID, verification.requestId());
        properties.put(VERDICT, verification.guard().effectiveVerdict().name());
        return properties;
    }
}
