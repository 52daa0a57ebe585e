package io.claimguard.merkle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The root of a tree and one leaf's inclusion proof in it, computed while its leaf hashes stream past once, in order:
 * what {@link MerkleTree#root} and {@link MerkleTree#inclusionProof} give over the same leaves, in memory that does not
 * grow with the tree ({@code O(log n)}: one {@link CompactRange} for the root, one per proof hash).
 *
 * <p>The proof's hashes are the roots of disjoint ranges of leaves that RFC 6962's {@code PATH(m, D[n])} names, which
 * depend on {@code m} and {@code n} only; so the ranges are known before the first leaf, and each leaf is appended to the
 * tree's range and to the one proof range it lies in (if any): about two node hashes per leaf, against the in-memory
 * prover's root and then its proof.
 */
public final class StreamedInclusion {

    private final long index;
    private final long size;
    private final CompactRange tree = new CompactRange();
    /** The proof's ranges in proof order (from the leaf up): {@code [lo, hi)} and the root of what is appended so far. */
    private final List<Range> proofRanges = new ArrayList<>();
    /** The same ranges in leaf order, and which of them the next leaf goes to. */
    private final List<Range> byLeaf;
    private int current;

    private static final class Range {
        final long lo;
        final long hi;
        final CompactRange hashes = new CompactRange();

        Range(long lo, long hi) {
            this.lo = lo;
            this.hi = hi;
        }
    }

    /**
     * @param index the leaf to prove, 0-based
     * @param size the tree's size: exactly this many leaves are to be appended
     * @throws IllegalArgumentException if {@code index} is not in {@code [0, size)}
     */
    public StreamedInclusion(long index, long size) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf index " + index + " is out of range for a tree of " + size
                    + " leaves (0 <= index < size)");
        }
        this.index = index;
        this.size = size;
        path(index, 0, size);
        List<Range> sorted = new ArrayList<>(proofRanges);
        sorted.sort((a, b) -> Long.compare(a.lo, b.lo));
        this.byLeaf = sorted;
    }

    /** RFC 6962 {@code PATH(m, D[lo:hi])}: the ranges whose roots the proof holds, from the bottom up. */
    private void path(long m, long lo, long hi) {
        long n = hi - lo;
        if (n == 1) {
            return;
        }
        long k = Long.highestOneBit(n - 1);
        if (m < k) {
            path(m, lo, lo + k);
            proofRanges.add(new Range(lo + k, hi));
        } else {
            path(m - k, lo + k, hi);
            proofRanges.add(new Range(lo, lo + k));
        }
    }

    /**
     * Appends the next leaf's hash.
     *
     * @throws IllegalArgumentException if it is not a 32-byte hash
     * @throws IllegalStateException if all {@code size} leaves were appended already
     */
    public void append(byte[] leafHash) {
        long at = tree.size();
        if (at == size) {
            throw new IllegalStateException("all " + size + " leaves were appended already");
        }
        tree.append(leafHash);
        while (current < byLeaf.size() && byLeaf.get(current).hi <= at) {
            current++;
        }
        if (current < byLeaf.size() && byLeaf.get(current).lo <= at) {
            byLeaf.get(current).hashes.append(leafHash);
        }
    }

    /** How many leaves were appended. */
    public long appended() {
        return tree.size();
    }

    /** The leaf being proven. */
    public long index() {
        return index;
    }

    /** The root over every leaf appended: the tree's once all {@code size} are. */
    public byte[] root() {
        return tree.root();
    }

    /**
     * {@code PATH(index, D[size])}, the leaf's sibling first.
     *
     * @throws IllegalStateException before all {@code size} leaves are appended
     */
    public List<byte[]> proof() {
        if (tree.size() != size) {
            throw new IllegalStateException(tree.size() + " of the tree's " + size + " leaves were appended");
        }
        List<byte[]> proof = new ArrayList<>(proofRanges.size());
        for (Range range : proofRanges) {
            proof.add(range.hashes.root());
        }
        return Collections.unmodifiableList(proof);
    }
}
