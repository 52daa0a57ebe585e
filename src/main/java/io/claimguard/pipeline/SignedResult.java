package io.claimguard.pipeline;

import java.util.Arrays;

/**
 * An effective result as it is sent, with the Ed25519 signature over exactly its bytes: the text a JMS consumer reads
 * (a TextMessage), the bytes a Kafka consumer or a reader of the outbox reads (its UTF-8 encoding, which decodes back
 * to the same text), the key id that names the signing key, and the signature in base64.
 *
 * @param text the result's JSON as sent in a TextMessage
 * @param bytes its UTF-8 encoding: the signed bytes, the Kafka value and the outbox file
 * @param keyId the signing key's id: 8 hexadecimal digits
 * @param signature the 64-byte Ed25519 signature of {@code bytes}, in base64
 */
public record SignedResult(String text, byte[] bytes, String keyId, String signature) {

    /** The sidecar file beside each outbox file: {@code <request_id>.<audit_id>.json.sig}. */
    public static final String SIDECAR_SUFFIX = ".sig";

    /**
     * The text of the sidecar file beside an outbox file ({@code <result file>.sig}): one JSON object with the same
     * two names the JMS properties and Kafka headers carry, then a line break.
     */
    public String sidecar() {
        return "{\"" + ResultProperties.SIGNATURE_KEY_ID + "\":\"" + keyId + "\",\"" + ResultProperties.SIGNATURE + "\":\""
                + signature + "\"}\n";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SignedResult that && text.equals(that.text) && Arrays.equals(bytes, that.bytes)
                && keyId.equals(that.keyId) && signature.equals(that.signature);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return "SignedResult[" + bytes.length + " bytes, key id " + keyId + "]";
    }
}
