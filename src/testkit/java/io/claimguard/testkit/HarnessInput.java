package io.claimguard.testkit;

import io.claimguard.audit.Sha256;
import java.util.HexFormat;

/**
 * One input the harness feeds, with what must become of it. The service keys its rows on the SHA-256 of the
 * exact bytes ({@code verification_audit.input_sha256}, {@code dead_letter.payload_sha256}), so the harness does
 * too.
 *
 * @param tag unique per input; the file name (without {@code .json}), the JMS property {@link #TAG_PROPERTY} and the
 *     Kafka record's key
 * @param requestId the envelope's request_id where it has a valid one (outbox files are named after it), else null
 * @param expectedReasonCode for a rejected or poison input, the {@code dead_letter.reason_code} it must get
 * @param claimChecks how many claim_check rows an accepted input's audit row must have
 * @param body the JMS message type it is sent as (a file or Kafka record ignores it)
 */
public record HarnessInput(
        String tag,
        Channel channel,
        Kind kind,
        String requestId,
        String expectedReasonCode,
        byte[] bytes,
        String sha256,
        int claimChecks,
        Body body) {

    /** JMS property carrying the tag, for reading a dead-letter queue by hand. */
    public static final String TAG_PROPERTY = "FaultHarnessTag";

    public enum Channel { JMS, FILE, KAFKA }

    /**
     * The JMS message type an input is sent as: text and bytes carry envelopes, the others are protocol-level poison;
     * {@code UNDECODABLE_TEXT} is raw bytes in a message marked as text, which no JMS client can receive.
     */
    public enum Body { TEXT, BYTES, MAP, STREAM, OBJECT, UNDECODABLE_TEXT }

    public enum Kind {
        /** An acceptable envelope: audited exactly once and forwarded. */
        VALID,
        /** Not an acceptable envelope: dead-lettered with its rejection reason. */
        REJECTED,
        /** Valid JSON PostgreSQL refuses to store: dead-lettered as {@code processing_failed} after bounded retries. */
        POISON,
        /**
         * A Map, Stream or Object message: dead-lettered as {@code message_type.unsupported} at its first delivery,
         * with its body as the broker holds it, so it is matched by its JMS message id rather than by its bytes.
         */
        UNSUPPORTED
    }

    public static HarnessInput of(String tag, Channel channel, Kind kind, String requestId, String expectedReasonCode,
            byte[] bytes, int claimChecks, boolean bytesMessage) {
        return new HarnessInput(tag, channel, kind, requestId, expectedReasonCode, bytes, sha256(bytes), claimChecks,
                bytesMessage ? Body.BYTES : Body.TEXT);
    }

    /** A JMS message of a type ClaimGuard does not take, carrying {@code content} in its body. */
    public static HarnessInput unsupported(String tag, Body body, byte[] content) {
        return new HarnessInput(tag, Channel.JMS, Kind.UNSUPPORTED, null, "message_type.unsupported", content,
                sha256(content), 0, body);
    }

    /**
     * Raw bytes in a message marked as text: rejected as {@code message_body.undecodable} at its first delivery, its
     * dead_letter row and dead-letter copy holding exactly these bytes.
     */
    public static HarnessInput undecodable(String tag, byte[] content) {
        return new HarnessInput(tag, Channel.JMS, Kind.REJECTED, null, "message_body.undecodable", content,
                sha256(content), 0, Body.UNDECODABLE_TEXT);
    }

    public String fileName() {
        return tag + ".json";
    }

    public boolean deadLettered() {
        return kind != Kind.VALID;
    }

    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(Sha256.of(bytes));
    }
}
