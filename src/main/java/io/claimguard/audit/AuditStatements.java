package io.claimguard.audit;

import io.claimguard.ingest.ReceivedInput;
import io.claimguard.verify.Pipeline;
import java.util.HashMap;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.component.jdbc.JdbcConstants;

/**
 * Thin adapter between the pipeline and camel-jdbc for dead letters: puts the statement in the body and its
 * parameters in {@code CamelJdbcParameters}. Audit rows are written by {@link AuditWriter}.
 */
public final class AuditStatements {

    private AuditStatements() {
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
}
