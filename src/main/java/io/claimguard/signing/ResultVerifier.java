package io.claimguard.signing;

import io.claimguard.checkpoint.Ed25519Keys;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks results against the public keys a consumer trusts, several at once (during a key rotation, or one per
 * instance), each chosen by its key id. Plain Java: what a consumer does, in the one place the tools use.
 */
public final class ResultVerifier {

    private final Map<String, PublicKey> keysById = new LinkedHashMap<>();

    public ResultVerifier(Collection<PublicKey> publicKeys) {
        for (PublicKey key : publicKeys) {
            keysById.put(ResultSignatures.keyId(key), key);
        }
    }

    /** The key ids this verifier knows, in the order the keys were given. */
    public List<String> keyIds() {
        return new ArrayList<>(keysById.keySet());
    }

    /**
     * Whether the body was signed by one of the keys.
     *
     * @param body the result's bytes exactly as received
     * @param keyId the key id that came with it; null or blank when none did
     * @param signature the base64 signature that came with it; null or blank when none did
     */
    public Check check(byte[] body, String keyId, String signature) {
        if (isBlank(signature)) {
            return Check.failed("no signature");
        }
        if (isBlank(keyId)) {
            return Check.failed("no key id");
        }
        PublicKey key = keysById.get(keyId);
        if (key == null) {
            return Check.failed("unknown key id " + keyId + " (known: " + String.join(", ", keysById.keySet()) + ")");
        }
        byte[] signatureBytes;
        try {
            signatureBytes = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return Check.failed("signature is not base64");
        }
        if (signatureBytes.length != ResultSignatures.SIGNATURE_BYTES) {
            return Check.failed("signature is " + signatureBytes.length + " bytes, not " + ResultSignatures.SIGNATURE_BYTES);
        }
        if (!Ed25519Keys.verifies(key, body, signatureBytes)) {
            return Check.failed("signature does not match (key id " + keyId + ")");
        }
        return new Check(true, "signed by key id " + keyId);
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    /** The answer for one result: whether it verifies, and in words why or why not. */
    public record Check(boolean verified, String reason) {

        static Check failed(String reason) {
            return new Check(false, reason);
        }
    }
}
