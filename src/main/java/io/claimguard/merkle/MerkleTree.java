package io.claimguard.merkle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Roots and proofs computed over a whole list of leaf hashes held in memory: the prover's side, RFC 6962 section 2.1
 * ({@code MTH}, {@code PATH}, {@code PROOF}) as written there.
 *
 * <p>Each function hashes every leaf at most once up the tree: a root costs {@code n - 1} node hashes and a proof at
 * most as many, since the subtrees a proof names are disjoint. Nothing is kept between calls; memory beyond the leaves
 * is the proof and a recursion {@code log2(n)} deep. For a proof over an earlier tree size, pass
 * {@code leafHashes.subList(0, size)}.
 */
public final class MerkleTree {

    private MerkleTree() {
    }

    /** {@code MTH(D[n])} over all of {@code leafHashes}; {@link Rfc6962#emptyRoot()} when there are none. */
    public static byte[] root(List<byte[]> leafHashes) {
        byte[][] leaves = checkedLeaves(leafHashes);
        if (leaves.length == 0) {
            return Rfc6962.emptyRoot();
        }
        return subtreeRoot(leaves, 0, leaves.length).clone();
    }

    /**
     * {@code PATH(index, D[n])} with {@code n = leafHashes.size()}: the audit path from the leaf at {@code index} to
     * the root, the leaf's sibling first. Empty for a tree of one leaf.
     *
     * @throws IllegalArgumentException if {@code index} is not in {@code [0, n)}, or a leaf hash is null or not 32
     *         bytes
     */
    public static List<byte[]> inclusionProof(List<byte[]> leafHashes, long index) {
        byte[][] leaves = checkedLeaves(leafHashes);
        if (index < 0 || index >= leaves.length) {
            throw new IllegalArgumentException("leaf index " + index + " is out of range for a tree of " + leaves.length
                    + " leaves (0 <= index < size)");
        }
        List<byte[]> proof = new ArrayList<>();
        path((int) index, leaves, 0, leaves.length, proof);
        return Collections.unmodifiableList(proof);
    }

    /**
     * {@code PROOF(oldSize, D[n])} with {@code n = leafHashes.size()}: what proves that the tree of the first
     * {@code oldSize} leaves is a prefix of this one. Empty when {@code oldSize == n}.
     *
     * <p>{@code oldSize} 0 is refused: RFC 9162 section 2.1.4 defines the proof for {@code 0 < m < n} only (and RFC
     * 6962's {@code m = n} case). The empty tree is a prefix of every tree, so there is nothing to prove; a verifier
     * holding an empty checkpoint checks that its root is {@link Rfc6962#emptyRoot()} and takes the next one as is.
     *
     * @throws IllegalArgumentException if {@code oldSize} is not in {@code [1, n]}, or a leaf hash is null or not 32
     *         bytes
     */
    public static List<byte[]> consistencyProof(List<byte[]> leafHashes, long oldSize) {
        byte[][] leaves = checkedLeaves(leafHashes);
        if (oldSize < 1 || oldSize > leaves.length) {
            throw new IllegalArgumentException("old size " + oldSize + " is out of range for a tree of " + leaves.length
                    + " leaves (0 < oldSize <= size: there is no consistency proof from the empty tree)");
        }
        List<byte[]> proof = new ArrayList<>();
        subproof((int) oldSize, leaves, 0, leaves.length, true, proof);
        return Collections.unmodifiableList(proof);
    }

    /**
     * {@code MTH(D[lo:hi])}, {@code hi > lo}; the leaf's own array when there is one leaf, so callers copy what they
     * hand out.
     */
    private static byte[] subtreeRoot(byte[][] leaves, int lo, int hi) {
        int n = hi - lo;
        if (n == 1) {
            return leaves[lo];
        }
        int k = split(n);
        return Rfc6962.hashChildren(subtreeRoot(leaves, lo, lo + k), subtreeRoot(leaves, lo + k, hi));
    }

    /** RFC 6962 {@code PATH(m, D[lo:hi])}, appended to {@code out} from the bottom up. */
    private static void path(int m, byte[][] leaves, int lo, int hi, List<byte[]> out) {
        int n = hi - lo;
        if (n == 1) {
            return;
        }
        int k = split(n);
        if (m < k) {
            path(m, leaves, lo, lo + k, out);
            out.add(subtreeRoot(leaves, lo + k, hi).clone());
        } else {
            path(m - k, leaves, lo + k, hi, out);
            out.add(subtreeRoot(leaves, lo, lo + k).clone());
        }
    }

    /**
     * RFC 6962 {@code SUBPROOF(m, D[lo:hi], b)}, appended to {@code out} from the bottom up; {@code oldRootKnown} is
     * the RFC's {@code b}: whether the subtree of the first {@code m} leaves is the old tree itself, whose root the
     * verifier already has.
     */
    private static void subproof(int m, byte[][] leaves, int lo, int hi, boolean oldRootKnown, List<byte[]> out) {
        int n = hi - lo;
        if (m == n) {
            if (!oldRootKnown) {
                out.add(subtreeRoot(leaves, lo, hi).clone());
            }
            return;
        }
        int k = split(n);
        if (m <= k) {
            subproof(m, leaves, lo, lo + k, oldRootKnown, out);
            out.add(subtreeRoot(leaves, lo + k, hi).clone());
        } else {
            subproof(m - k, leaves, lo + k, hi, false, out);
            out.add(subtreeRoot(leaves, lo, lo + k).clone());
        }
    }

    /** The largest power of two smaller than {@code n}, {@code n >= 2}: where RFC 6962 splits a tree of n leaves. */
    private static int split(int n) {
        return Integer.highestOneBit(n - 1);
    }

    /** The leaf hashes as an array (random access whatever the list), each checked to be a 32-byte hash. */
    private static byte[][] checkedLeaves(List<byte[]> leafHashes) {
        if (leafHashes == null) {
            throw new IllegalArgumentException("leaf hashes must not be null");
        }
        byte[][] leaves = leafHashes.toArray(new byte[0][]);
        for (int i = 0; i < leaves.length; i++) {
            Rfc6962.requireHash(leaves[i], "leaf hash " + i);
        }
        return leaves;
    }
}
