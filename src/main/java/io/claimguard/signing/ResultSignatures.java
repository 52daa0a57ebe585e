package io.claimguard.signing;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.pipeline.SignedResult;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.EdECPrivateKey;
import java.util.Base64;
import java.util.HexFormat;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Ed25519 signatures of effective results, without a framework: what the service signs, and the key id that names the key.
 * The signed bytes are the result's UTF-8 bytes exactly as sent; the key id is the C2SP signed-note key id the signed
 * checkpoints use (the first 4 bytes of SHA-256 of the key's name, a line feed, the signature type 0x01 and the raw
 * 32-byte key), under the name {@value #KEY_NAME}, written as 8 lower-case hexadecimal digits.
 */
public final class ResultSignatures {

    /** The name every result-signing key goes by in its key id (a checkpoint key goes by the checkpoint's origin). */
    public static final String KEY_NAME = "claimguard-results";
    /** An Ed25519 signature is 64 bytes. */
    static final int SIGNATURE_BYTES = Ed25519.SIGNATURE_SIZE;

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

    /**
     * Signs results with one key; safe for any number of threads at once (each signature is made on its own, with no
     * lock). The signature is RFC 8032's Ed25519, made with Bouncy Castle's implementation: the same 64 bytes as
     * {@code java.security}'s (Ed25519 is deterministic), which verifies them everywhere, in a tenth of the time on
     * Java 17 (see the archived design {@code 2026-12-04-signed-results}). Keys are read and checked with
     * {@code java.security} ({@link Ed25519Keys}).
     */
    public static final class Signer {

        private final byte[] seed;
        private final byte[] publicKey;
        private final String keyId;

        public Signer(Ed25519Keys.SigningKey key) {
            this.seed = seed(key.privateKey());
            this.publicKey = Ed25519Keys.raw(key.publicKey());
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
            if (!EffectiveResult.isWellFormed(resultJson)) {
                throw new IllegalArgumentException("the result holds a lone surrogate, whose UTF-8 bytes would not read"
                        + " back as its text: write it with EffectiveResult.toJson");
            }
            byte[] bytes = resultJson.getBytes(StandardCharsets.UTF_8);
            byte[] signature = new byte[Ed25519.SIGNATURE_SIZE];
            Ed25519.sign(seed, 0, publicKey, 0, bytes, 0, bytes.length, signature, 0);
            return new SignedResult(resultJson, bytes, keyId, Base64.getEncoder().encodeToString(signature));
        }

        /** The private key's 32-byte seed, as RFC 8032 defines the private key. */
        private static byte[] seed(PrivateKey key) {
            if (key instanceof EdECPrivateKey edwards && edwards.getBytes().isPresent()
                    && edwards.getBytes().get().length == Ed25519.SECRET_KEY_SIZE) {
                return edwards.getBytes().get();
            }
            throw new IllegalArgumentException("not an Ed25519 private key: " + key.getAlgorithm());
        }
    }
}
