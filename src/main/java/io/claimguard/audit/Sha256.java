package io.claimguard.audit;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of an input's exact bytes: the key that tells a byte-identical redelivery. */
public final class Sha256 {

    private Sha256() {
    }

    public static byte[] of(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
