package io.claimguard.signing;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.pipeline.SignedResult;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Ed25519 signatures of effective results, in plain Java: what the service signs, and the key id that names the key.
 * The signed bytes are the result's UTF-8 bytes exactly as sent; the key id is the C2SP signed-note key id the signed
 * checkpoints use (the first 4 bytes of SHA-256 of the key's name, a line feed, the signature type 0x01 and the raw
 * 32-byte key), under the name {@value #KEY_NAME}, written as 8 lower-case hexadecimal digits.
 */
public final class ResultSignatures {

    /** The name every result-signing key goes by in its key id (a checkpoint key goes by the checkpoint's origin). */
    public static final String KEY_NAME = "claimguard-results";
    /** An Ed25519 signature is 64 bytes. */
    static final int SIGNATURE_BYTES = 64;

    private ResultSignatures() {
    }

    /** The key id of a result-signing key: 8 hexadecimal digits. */
    public static String keyId(PublicKey key) {
        return HexFormat.of().formatHex(Ed25519Keys.keyId(KEY_NAME, key));
    }

    /** The C2SP verifier key text of a result-signing key ({@code claimguard-results+<key id>+<base64 key>}). */
    public static String verifierKey(PublicKey key) {
        return Ed25519Keys.verifierKey(KEY_NAME, key);
    }

    /** Signs results with one key; safe for any number of threads at once (each signature is made on its own). */
    public static final class Signer {

        private final PrivateKey privateKey;
        private final String keyId;

        public Signer(Ed25519Keys.SigningKey key) {
            this.privateKey = key.privateKey();
            this.keyId = ResultSignatures.keyId(key.publicKey());
        }

        public String keyId() {
            return keyId;
        }

        /**
         * The result signed as it will be sent. Its text must be what {@code EffectiveResult.toJson} writes: text whose
         * UTF-8 bytes decode back to itself, so that a consumer reading the text of a JMS message and one reading the
         * bytes of a Kafka record or a file check the same bytes. Text that would not (a lone surrogate) is refused.
         */
        public SignedResult sign(String resultJson) {
            byte[] bytes = resultJson.getBytes(StandardCharsets.UTF_8);
            if (!EffectiveResult.isWellFormed(resultJson)) {
                throw new IllegalArgumentException("the result holds a lone surrogate, whose UTF-8 bytes would not read"
                        + " back as its text: write it with EffectiveResult.toJson");
            }
            return new SignedResult(resultJson, bytes, keyId,
                    Base64.getEncoder().encodeToString(Ed25519Keys.sign(privateKey, bytes)));
        }
    }
}
