package io.claimguard.domain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * What {@code claimguard.dead_letter} keeps of a set-aside input: its bytes up to a cap, its whole size and the SHA-256
 * of all of them. An input within the cap is kept whole; a larger one keeps only its first {@code cap} bytes and is
 * {@link #truncated()}: the whole of it stays where its intake set it aside (the inbox's {@code .error/} folder, the
 * broker's dead-letter queue, the dead-letter topic).
 *
 * @param bytes the input's bytes, all of them or the first {@code cap}
 * @param size the whole input's size in bytes
 * @param sha256 the SHA-256 of the whole input (32 bytes): the same input delivered again has the same one
 */
public record StoredPayload(byte[] bytes, long size, byte[] sha256) {

    private static final int SHA256_BYTES = 32;
    private static final int READ_BLOCK = 64 * 1024;

    public StoredPayload {
        if (size < bytes.length) {
            throw new IllegalArgumentException("an input of " + size + " bytes cannot keep " + bytes.length);
        }
        if (sha256.length != SHA256_BYTES) {
            throw new IllegalArgumentException("a SHA-256 has 32 bytes, not " + sha256.length);
        }
    }

    /** Whether only the first bytes are kept. */
    public boolean truncated() {
        return bytes.length < size;
    }

    /** The input held whole in memory, kept whole up to {@code cap} bytes and cut there beyond. */
    public static StoredPayload of(byte[] input, int cap) {
        return new StoredPayload(input.length > checked(cap) ? Arrays.copyOf(input, cap) : input, input.length,
                newDigest().digest(input));
    }

    /**
     * Reads an input to its end, holding no more than its first {@code cap} bytes: the rest is only counted and
     * hashed, so that an input of any size costs {@code cap} bytes of memory (and one pass over it).
     */
    public static StoredPayload read(InputStream input, int cap) throws IOException {
        MessageDigest digest = newDigest();
        ByteArrayOutputStream kept = new ByteArrayOutputStream(Math.min(checked(cap), READ_BLOCK));
        byte[] block = new byte[READ_BLOCK];
        long size = 0;
        for (int read; (read = input.read(block)) != -1; ) {
            digest.update(block, 0, read);
            if (size < cap) {
                kept.write(block, 0, (int) Math.min(read, cap - size));
            }
            size += read;
        }
        return new StoredPayload(kept.toByteArray(), size, digest.digest());
    }

    /** The same input kept up to a (smaller) cap: itself when it fits. */
    public StoredPayload cappedAt(int cap) {
        return bytes.length <= checked(cap) ? this : new StoredPayload(Arrays.copyOf(bytes, cap), size, sha256);
    }

    private static int checked(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("the cap must be at least one byte, got " + cap);
        }
        return cap;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
