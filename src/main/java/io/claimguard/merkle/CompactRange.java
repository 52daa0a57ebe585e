package io.claimguard.merkle;

import java.util.ArrayList;
import java.util.List;

/**
 * The incremental root of a growing tree: leaf hashes are appended one at a time and only the roots of the perfect
 * subtrees that make up the tree so far are kept (the "compact range" of transparency-dev/merkle, the frontier): one
 * per bit set in {@link #size()}, so {@code O(log n)} memory, and an append costs as many node hashes as the trailing
 * ones of the size before it (one on average).
 *
 * <p>The kept hashes ({@link #hashes()}) and the size are all it needs, so a checkpointer can store them and
 * {@link #resume(long, List) resume} later without reading the earlier leaves again. Not thread-safe.
 */
public final class CompactRange {

    /** The perfect subtrees' roots, left to right: the largest (leftmost) first, one per bit set in size. */
    private final List<byte[]> hashes;
    private long size;

    /** An empty range: size 0, root {@link Rfc6962#emptyRoot()}. */
    public CompactRange() {
        this.hashes = new ArrayList<>();
        this.size = 0;
    }

    private CompactRange(long size, List<byte[]> hashes) {
        this.hashes = hashes;
        this.size = size;
    }

    /**
     * The range of a tree of {@code size} leaves from its {@link #hashes()}, as another range returned them.
     *
     * @throws IllegalArgumentException if {@code size} is negative, the number of hashes is not the number of bits set
     *         in {@code size}, or a hash is null or not 32 bytes
     */
    public static CompactRange resume(long size, List<byte[]> hashes) {
        if (size < 0) {
            throw new IllegalArgumentException("size " + size + " is negative");
        }
        if (hashes == null) {
            throw new IllegalArgumentException("hashes must not be null");
        }
        if (hashes.size() != Long.bitCount(size)) {
            throw new IllegalArgumentException("a range of size " + size + " has " + Long.bitCount(size)
                    + " hashes (one per bit set in the size), not " + hashes.size());
        }
        List<byte[]> copies = new ArrayList<>(hashes.size());
        for (int i = 0; i < hashes.size(); i++) {
            copies.add(Rfc6962.requireHash(hashes.get(i), "hash " + i).clone());
        }
        return new CompactRange(size, copies);
    }

    /**
     * Appends the next leaf's hash ({@link Rfc6962#leafHash}), then merges equal-sized subtrees: each trailing one bit
     * of the size before the append is a subtree of the same size as the one just completed.
     *
     * @throws IllegalArgumentException if {@code leafHash} is null or not 32 bytes
     */
    public void append(byte[] leafHash) {
        byte[] hash = Rfc6962.requireHash(leafHash, "leaf hash " + size).clone();
        if (size == Long.MAX_VALUE) {
            throw new IllegalStateException("the range is full: " + size + " leaves");
        }
        for (long s = size; (s & 1) == 1; s >>>= 1) {
            hash = Rfc6962.hashChildren(hashes.remove(hashes.size() - 1), hash);
        }
        hashes.add(hash);
        size++;
    }

    /** The number of leaves appended (or resumed from). */
    public long size() {
        return size;
    }

    /**
     * The tree's root, equal to {@link MerkleTree#root} over all the leaves appended; {@link Rfc6962#emptyRoot()}
     * when there are none. The subtrees are joined right to left, as RFC 6962 splits a tree at the largest power of
     * two below its size.
     */
    public byte[] root() {
        if (hashes.isEmpty()) {
            return Rfc6962.emptyRoot();
        }
        byte[] root = hashes.get(hashes.size() - 1);
        for (int i = hashes.size() - 2; i >= 0; i--) {
            root = Rfc6962.hashChildren(hashes.get(i), root);
        }
        return root.clone();
    }

    /** Copies of the kept hashes, the leftmost (largest) subtree's first: what {@link #resume} takes back. */
    public List<byte[]> hashes() {
        List<byte[]> copies = new ArrayList<>(hashes.size());
        for (byte[] hash : hashes) {
            copies.add(hash.clone());
        }
        return List.copyOf(copies);
    }
}
