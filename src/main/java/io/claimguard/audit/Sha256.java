package io.claimguard.audit;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

final class Sha256 {

    private Sha256() {
    }

    static byte[] of(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
