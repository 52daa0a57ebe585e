package io.claimguard.ingest;

import java.time.OffsetDateTime;

/**
 * One input exactly as it arrived, before anything was made of it.
 *
 * @param source {@code file} or {@code jms}
 * @param sourceRef the file name or the JMS message id
 * @param receivedAt when ClaimGuard took the input
 * @param payload the exact bytes
 */
public record ReceivedInput(String source, String sourceRef, OffsetDateTime receivedAt, byte[] payload) {

    public static final String FILE = "file";
    public static final String JMS = "jms";

    public boolean fromFile() {
        return FILE.equals(source);
    }
}
