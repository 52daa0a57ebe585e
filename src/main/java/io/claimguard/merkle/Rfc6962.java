package io.claimguard.merkle;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * RFC 6962 section 2.1 hashing, with SHA-256: a leaf is hashed as {@code SHA-256(0x00 || data)}, an inner node as
 * {@code SHA-256(0x01 || left || right)}, and the empty tree's root is the hash of the empty string. The two prefixes
 * keep a leaf from passing for an inner node (second-preimage resistance).
 */
public final class Rfc6962 {

    /** The length of every hash in the tree: SHA-256's 32 bytes. */
    public static final int HASH_SIZE = 32;

    private static final byte LEAF_PREFIX = 0x00;
    private static final byte NODE_PREFIX = 0x01;

    /** One digest per thread: {@code MessageDigest.getInstance} is too slow for a million leaves, and not shareable. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Rfc6962::newDigest);

    private Rfc6962() {
    }

    /** {@code SHA-256(0x00 || leafData)}; leaf data may have any length, none included. */
    public static byte[] leafHash(byte[] leafData) {
        if (leafData == null) {
            throw new IllegalArgumentException("leaf data must not be null");
        }
        MessageDigest digest = SHA256.get();
        digest.update(LEAF_PREFIX);
        return digest.digest(leafData);
    }

    /** {@code SHA-256(0x01 || left || right)}; both must be {@value #HASH_SIZE}-byte hashes. */
    public static byte[] nodeHash(byte[] left, byte[] right) {
        requireHash(left, "left child hash");
        requireHash(right, "right child hash");
        return hashChildren(left, right);
    }

    /** The root of the empty tree: SHA-256 of the empty string, {@code e3b0c442...7852b855}. */
    public static byte[] emptyRoot() {
        return SHA256.get().digest();
    }

    /** {@link #nodeHash} for hashes this package has already checked or computed. */
    static byte[] hashChildren(byte[] left, byte[] right) {
        MessageDigest digest = SHA256.get();
        digest.update(NODE_PREFIX);
        digest.update(left);
        return digest.digest(right);
    }

    /**
     * Throws {@link IllegalArgumentException} unless {@code hash} is {@value #HASH_SIZE} bytes; {@code what} names it
     * in the message ("leaf hash 3", "old root").
     */
    static byte[] requireHash(byte[] hash, String what) {
        if (hash == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (hash.length != HASH_SIZE) {
            throw new IllegalArgumentException(what + " has " + hash.length + " bytes, expected " + HASH_SIZE);
        }
        return hash;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
