package io.claimguard.pipeline;

import java.time.OffsetDateTime;

/**
 * One input exactly as it arrived, before anything was made of it.
 *
 * @param source where it came from
 * @param sourceRef the file name, the JMS message id, or the Kafka record's {@code <topic>-<partition>@<offset>}
 * @param receivedAt when ClaimGuard took the input
 * @param payload the exact bytes
 */
public record ReceivedInput(Source source, String sourceRef, OffsetDateTime receivedAt, byte[] payload) {

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
