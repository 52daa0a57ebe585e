package io.claimguard.deadletter;

import io.claimguard.audit.Text;
import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.StoredPayload;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.Redrive;
import io.claimguard.support.LogValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.jdbc.JdbcConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Records a rejected or failed input in {@code dead_letter}, with its exact bytes and why: once per delivery, so
 * that a retried delivery makes no second row. An input larger than {@code claimguard.dead-letter.max-stored-bytes}
 * keeps its first that many bytes, with its whole size and SHA-256, marked truncated ({@link StoredPayload}). Setting
 * the input aside (the dead-letter queue or topic, {@code .error/}) is its intake's part, in the same unit of work as
 * its acknowledgement, and keeps it whole. Failures go back to the caller, whose policies know what they mean for the
 * input.
 */
@Component
public class DeadLetterRoute extends EndpointRouteBuilder {

    /**
     * A re-driven input's {@code redrive_of} is kept only if it names a dead letter: a wrong id never fails the
     * insert. The delivery's key ({@code dead_letter_key}, V14) is inserted first: it decides across the monthly
     * partitions whether the delivery was recorded before. Returns the new row's {@code redrive_of}; no row when the
     * delivery was recorded before.
     */
    static final String INSERT_DEAD_LETTER = """
            WITH delivery AS (
                INSERT INTO claimguard.dead_letter_key (source, source_ref, payload_sha256, dead_letter_id, recorded_at)
                VALUES (:?source, :?source_ref, :?payload_sha256,
                        nextval(pg_get_serial_sequence('claimguard.dead_letter', 'id')), now())
                ON CONFLICT ON CONSTRAINT dead_letter_delivery_key DO NOTHING
                RETURNING dead_letter_id, recorded_at, source, source_ref, payload_sha256
            )
            INSERT INTO claimguard.dead_letter (
                id, recorded_at, source, source_ref, payload_sha256, received_at, reason_code, reason, payload,
                payload_size, payload_truncated, redrive_of)
            SELECT dead_letter_id, recorded_at, source, source_ref, payload_sha256,
                   CAST(:?received_at AS timestamptz), CAST(:?reason_code AS text), CAST(:?reason AS text),
                   CAST(:?payload AS bytea), CAST(:?payload_size AS bigint), CAST(:?payload_truncated AS boolean),
                   (SELECT k.dead_letter_id FROM claimguard.dead_letter_key k
                    WHERE k.dead_letter_id = CAST(:?redrive_of AS bigint))
            FROM delivery
            RETURNING redrive_of
            """;

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterRoute.class);

    private final PipelineObserver observer;
    private final int maxStoredBytes;

    public DeadLetterRoute(PipelineObserver observer, ClaimGuardProperties properties) {
        this.observer = observer;
        this.maxStoredBytes = properties.deadLetter().cap();
    }

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.DEAD_LETTER)
                .routeId("dead-letter")
                .process(this::prepareInsert)
                .to(jdbc("dataSource").useHeadersAsParameters(true))
                .process(DeadLetterRoute::warnOfUnknownRedrive)
                .process(observer::deadLettered);
    }

    /** The insert in the body, its parameters in {@code CamelJdbcParameters}, as camel-jdbc takes them. */
    private void prepareInsert(Exchange exchange) {
        ReceivedInput input = InputExchange.input(exchange);
        DeadLetter deadLetter = InputExchange.deadLetter(exchange);
        StoredPayload stored = stored(input, maxStoredBytes);
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("source", input.source().label());
        parameters.put("source_ref", Text.storable(input.sourceRef()));
        parameters.put("received_at", input.receivedAt());
        parameters.put("reason_code", deadLetter.reason().code());
        parameters.put("reason", Text.storable(deadLetter.detail()));
        parameters.put("payload", stored.bytes());
        parameters.put("payload_sha256", stored.sha256());
        parameters.put("payload_size", stored.size());
        parameters.put("payload_truncated", stored.truncated());
        parameters.put("redrive_of", input.redriveOf());
        exchange.getIn().setHeader(JdbcConstants.JDBC_PARAMETERS, parameters);
        exchange.getIn().setBody(INSERT_DEAD_LETTER);
    }

    /** What the row keeps of the input: all of it up to the cap, else its first bytes with its whole size and hash. */
    static StoredPayload stored(ReceivedInput input, int maxStoredBytes) {
        return input.partial() != null
                ? input.partial().cappedAt(maxStoredBytes)
                : StoredPayload.of(input.payload(), maxStoredBytes);
    }

    /** A re-drive that names no dead letter is recorded without the link, and said so. */
    private static void warnOfUnknownRedrive(Exchange exchange) {
        ReceivedInput input = InputExchange.input(exchange);
        List<?> inserted = exchange.getIn().getBody(List.class);
        if (input.redriveOf() != null && inserted != null && !inserted.isEmpty()
                && ((Map<?, ?>) inserted.get(0)).get("redrive_of") == null) {
            Redrive.warnNamesNoDeadLetter(LOG, "dead letter of " + input.source().label() + " input "
                    + LogValue.of(input.sourceRef()), input.redriveOf());
        }
    }
}
