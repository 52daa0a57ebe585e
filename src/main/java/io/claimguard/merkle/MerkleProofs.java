package io.claimguard.merkle;

import static io.claimguard.merkle.ProofException.Reason.INDEX_OUT_OF_RANGE;
import static io.claimguard.merkle.ProofException.Reason.MALFORMED_HASH;
import static io.claimguard.merkle.ProofException.Reason.ROOT_MISMATCH;
import static io.claimguard.merkle.ProofException.Reason.SIZE_OUT_OF_RANGE;
import static io.claimguard.merkle.ProofException.Reason.WRONG_PROOF_LENGTH;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * The verifier's side: checks inclusion and consistency proofs against roots, with no tree, by the algorithms of RFC
 * 9162 sections 2.1.3.2 and 2.1.4.2 (the same proofs as RFC 6962's).
 *
 * <p>Everything about the claim checked (index and sizes, the hashes' lengths, the proof's length, the roots) is
 * untrusted: anything wrong with it is a {@link ProofException} naming it, never another exception. Only null
 * arguments, which are the caller's mistake, are an {@link IllegalArgumentException}. The proof's length is checked
 * before any hashing, so that a too short or too long proof is told apart from a wrong one.
 *
 * <p>A proof binds a leaf (or an old tree) to a root, not a size to a root: take the sizes from the signed checkpoint
 * that carries the root, never from the receipt or proof being checked.
 */
public final class MerkleProofs {

    private static final HexFormat HEX = HexFormat.of();

    private MerkleProofs() {
    }

    /**
     * Checks that {@code leafHash} is the leaf at {@code index} of the tree of {@code treeSize} leaves whose root is
     * {@code root}, by the audit path {@code proof} (the leaf's sibling first).
     *
     * @throws ProofException if {@code index >= treeSize} (or negative), a hash is not 32 bytes, the proof does not
     *         have the length the index and size call for, or it does not lead to {@code root}
     */
    public static void verifyInclusion(byte[] leafHash, long index, long treeSize, List<byte[]> proof, byte[] root) {
        checkHash(root, "root");
        byte[] calculated = rootFromInclusion(leafHash, index, treeSize, proof);
        if (!MessageDigest.isEqual(calculated, root)) {
            throw mismatch("root", calculated, root);
        }
    }

    /**
     * The root of the tree of {@code treeSize} leaves that has {@code leafHash} at {@code index}, by the audit path
     * {@code proof}: what {@link #verifyInclusion} compares with the root it is given (RFC 9162 section 2.1.3.2, steps
     * 1 to 4).
     *
     * @throws ProofException if {@code index >= treeSize} (or negative), a hash is not 32 bytes or the proof does not
     *         have the length the index and size call for
     */
    public static byte[] rootFromInclusion(byte[] leafHash, long index, long treeSize, List<byte[]> proof) {
        checkHash(leafHash, "leaf hash");
        checkProof(proof);
        if (index < 0 || index >= treeSize) {
            throw new ProofException(INDEX_OUT_OF_RANGE, "leaf index " + index + " is out of range for a tree of "
                    + treeSize + " leaves (0 <= index < size)");
        }
        checkLength(proof, inclusionProofLength(index, treeSize),
                "an inclusion proof for leaf " + index + " of a tree of " + treeSize + " leaves");

        return climb(index, treeSize - 1, leafHash, proof).root().clone();
    }

    /**
     * Checks that the tree of {@code oldSize} leaves with root {@code oldRoot} is a prefix of the tree of
     * {@code newSize} leaves with root {@code newRoot}, by the consistency proof {@code proof}. Equal sizes need an
     * empty proof and equal roots.
     *
     * <p>{@code oldSize} 0 is refused ({@link ProofException.Reason#SIZE_OUT_OF_RANGE}), as RFC 9162 section 2.1.4
     * defines consistency proofs from a non-empty tree only: the empty tree is a prefix of every tree, so a verifier
     * holding an empty checkpoint has nothing to check but that its root is {@link Rfc6962#emptyRoot()}.
     *
     * @throws ProofException if the sizes are not {@code 0 < oldSize <= newSize}, a hash is not 32 bytes, the proof
     *         does not have the length the sizes call for, or it does not lead to both roots
     */
    public static void verifyConsistency(long oldSize, long newSize, byte[] oldRoot, byte[] newRoot,
            List<byte[]> proof) {
        checkHash(oldRoot, "old root");
        checkHash(newRoot, "new root");
        checkProof(proof);
        if (oldSize < 1 || oldSize > newSize) {
            throw new ProofException(SIZE_OUT_OF_RANGE, "old size " + oldSize + " and new size " + newSize
                    + " cannot be proved consistent (0 < oldSize <= newSize: there is no consistency proof from the"
                    + " empty tree)");
        }
        if (oldSize == newSize) {
            checkLength(proof, 0, "a consistency proof between equal sizes");
            if (!MessageDigest.isEqual(oldRoot, newRoot)) {
                throw new ProofException(ROOT_MISMATCH, "old and new size are both " + oldSize + " but the old root "
                        + HEX.formatHex(oldRoot) + " is not the new root " + HEX.formatHex(newRoot));
            }
            return;
        }
        checkLength(proof, consistencyProofLength(oldSize, newSize),
                "a consistency proof from " + oldSize + " to " + newSize + " leaves");

        // Steps 2 and 5: the climb starts from the root of the old tree's last perfect subtree, the proof's first
        // hash, or the old root itself when the old tree is perfect (oldSize a power of two), which the proof omits.
        boolean oldTreeIsPerfect = Long.bitCount(oldSize) == 1;
        byte[] seed = oldTreeIsPerfect ? oldRoot : proof.get(0);
        // Steps 3 and 4: from that subtree's root, the last node of its level.
        long fn = oldSize - 1;
        long sn = newSize - 1;
        while ((fn & 1) == 1) {
            fn >>>= 1;
            sn >>>= 1;
        }
        Climb roots = climb(fn, sn, seed, proof.subList(oldTreeIsPerfect ? 0 : 1, proof.size()));
        if (!MessageDigest.isEqual(roots.leftRoot(), oldRoot)) {
            throw mismatch("old root", roots.leftRoot(), oldRoot);
        }
        if (!MessageDigest.isEqual(roots.root(), newRoot)) {
            throw mismatch("new root", roots.root(), newRoot);
        }
    }

    /**
     * The length of the audit path of leaf {@code index} in a tree of {@code treeSize} leaves, {@code index <
     * treeSize}: a sibling for each level below where the paths to {@code index} and to the last leaf part (the bits
     * where they differ), then one for each left subtree above it.
     */
    static int inclusionProofLength(long index, long treeSize) {
        int inner = 64 - Long.numberOfLeadingZeros(index ^ (treeSize - 1));
        return inner + Long.bitCount(index >>> inner);
    }

    /**
     * The length of the consistency proof from {@code oldSize} to {@code newSize} leaves, {@code 0 < oldSize <
     * newSize}: the audit path of the old tree's last leaf in the new tree, less the levels inside the old tree's
     * rightmost perfect subtree, plus that subtree's root unless it is the whole old tree (oldSize a power of two).
     */
    static int consistencyProofLength(long oldSize, long newSize) {
        int below = Long.numberOfTrailingZeros(oldSize);
        int seed = Long.bitCount(oldSize) == 1 ? 0 : 1;
        return seed + inclusionProofLength(oldSize - 1, newSize) - below;
    }

    /** What {@link #climb} reaches: the root, and the root of the tree cut after the node it started from. */
    private record Climb(byte[] leftRoot, byte[] root) {
    }

    /**
     * The loop of both RFC 9162 verifications (section 2.1.3.2 step 4, whose {@code r} is {@code sr} here, and
     * section 2.1.4.2 step 6): climbs from the node {@code fn} of its level, where {@code sn} is the tree's last node,
     * hashing in each element of {@code path} on the side the two call for. {@code sr} becomes the tree's root and
     * {@code fr}, which takes only the elements to the left, the root of the tree that ends with the node's leaves.
     */
    private static Climb climb(long fn, long sn, byte[] seed, List<byte[]> path) {
        byte[] fr = seed;
        byte[] sr = seed;
        for (byte[] c : path) {
            requireBelowRoot(sn);
            if ((fn & 1) == 1 || fn == sn) {
                fr = Rfc6962.hashChildren(c, fr);
                sr = Rfc6962.hashChildren(c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>>= 1;
                    sn >>>= 1;
                }
            } else {
                sr = Rfc6962.hashChildren(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        requireAtRoot(sn);
        return new Climb(fr, sr);
    }

    /**
     * RFC 9162 steps 4a and 6a: a hash left over once the path has reached the root fails the proof. The length checked
     * first makes it unreachable; it stays so that the algorithm is the RFC's, whole.
     */
    private static void requireBelowRoot(long sn) {
        if (sn == 0) {
            throw new ProofException(WRONG_PROOF_LENGTH, "the proof has hashes left over above the root");
        }
    }

    /** RFC 9162 steps 5 and 7: the path must end at the root ({@code sn == 0}). Unreachable as above. */
    private static void requireAtRoot(long sn) {
        if (sn != 0) {
            throw new ProofException(WRONG_PROOF_LENGTH, "the proof ends below the root");
        }
    }

    private static void checkProof(List<byte[]> proof) {
        if (proof == null) {
            throw new IllegalArgumentException("proof must not be null");
        }
        for (int i = 0; i < proof.size(); i++) {
            checkHash(proof.get(i), "proof element " + i);
        }
    }

    private static void checkHash(byte[] hash, String what) {
        if (hash == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (hash.length != Rfc6962.HASH_SIZE) {
            throw new ProofException(MALFORMED_HASH, what + " has " + hash.length + " bytes, expected "
                    + Rfc6962.HASH_SIZE);
        }
    }

    private static void checkLength(List<byte[]> proof, int expected, String what) {
        if (proof.size() != expected) {
            throw new ProofException(WRONG_PROOF_LENGTH, what + " has " + expected + " hashes, this one has "
                    + proof.size());
        }
    }

    private static ProofException mismatch(String what, byte[] calculated, byte[] expected) {
        return new ProofException(ROOT_MISMATCH, "the proof leads to " + HEX.formatHex(calculated) + ", not to the "
                + what + " " + HEX.formatHex(expected));
    }
}
