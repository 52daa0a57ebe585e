package io.claimguard.pipeline;

import io.claimguard.domain.StoredPayload;
import java.time.OffsetDateTime;

/**
 * One input exactly as it arrived, before anything was made of it.
 *
 * @param source where it came from
 * @param sourceRef the file name, the JMS message id, or the Kafka record's {@code <topic>-<partition>@<offset>}
 * @param receivedAt when ClaimGuard took the input
 * @param payload the exact bytes; only their start when {@code partial} is not null
 * @param redriveOf the {@code claimguard.dead_letter} id it was re-driven from ({@link Redrive}); null for every
 *     other input. Not yet checked: a dead letter of that id may not exist, and then its rows record none.
 * @param traceparent the W3C trace context the producer sent along ({@link #TRACEPARENT}: a JMS or AMQP property, a
 *     Kafka header), as received and not yet checked; null when it sent none. A file's is its envelope's field.
 * @param partial null when {@code payload} is the whole input, which is the rule; otherwise the input was too large to
 *     be held (a file over the dead letter's cap, which is over {@code claimguard.limits.max-bytes}): {@code payload}
 *     holds its first bytes, as these do, and this is what a dead letter keeps of it, with its whole size and SHA-256.
 *     Such an input can only be rejected as too large.
 */
public record ReceivedInput(Source source, String sourceRef, OffsetDateTime receivedAt, byte[] payload,
        Long redriveOf, String traceparent, StoredPayload partial) {

    /** The name of the W3C trace context's header, property or envelope field. */
    public static final String TRACEPARENT = "traceparent";

    /** An input held whole, as every intake but the file drop's for a huge file hands it over. */
    public ReceivedInput(Source source, String sourceRef, OffsetDateTime receivedAt, byte[] payload, Long redriveOf,
            String traceparent) {
        this(source, sourceRef, receivedAt, payload, redriveOf, traceparent, null);
    }

    /** The whole input's size in bytes, whether it is held whole or not. */
    public long size() {
        return partial == null ? payload.length : partial.size();
    }

    /** The intakes, named as in the {@code source} columns and the metrics' {@code source} tag. */
    public enum Source {
        FILE("file"),
        JMS("jms"),
        KAFKA("kafka");

        private final String label;

        Source(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
