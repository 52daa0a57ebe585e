package io.claimguard.pipeline;

import java.time.OffsetDateTime;

/**
 * One input exactly as it arrived, before anything was made of it.
 *
 * @param source where it came from
 * @param sourceRef the file name, the JMS message id, or the Kafka record's {@code <topic>-<partition>@<offset>}
 * @param receivedAt when ClaimGuard took the input
 * @param payload the exact bytes
 * @param redriveOf the {@code claimguard.dead_letter} id it was re-driven from ({@link Redrive}); null for every
 *     other input. Not yet checked: a dead letter of that id may not exist, and then its rows record none.
 * @param traceparent the W3C trace context the producer sent along ({@link #TRACEPARENT}: a JMS or AMQP property, a
 *     Kafka header), as received and not yet checked; null when it sent none. A file's is its envelope's field.
 */
public record ReceivedInput(Source source, String sourceRef, OffsetDateTime receivedAt, byte[] payload,
        Long redriveOf, String traceparent) {

    /** The name of the W3C trace context's header, property or envelope field. */
    public static final String TRACEPARENT = "traceparent";

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
