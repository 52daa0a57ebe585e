package io.claimguard.merkle;

import static io.claimguard.domain.SeededCases.forAll;
import static io.claimguard.merkle.ProofException.Reason.ROOT_MISMATCH;
import static io.claimguard.merkle.TestHashes.flipBit;
import static io.claimguard.merkle.TestHashes.hex;
import static io.claimguard.merkle.TestHashes.sealLeaves;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.domain.SeededCases.Gen;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Seeded properties of the prover, the compact range and the verifier together, over trees of 1 to 300 random seal
 * leaves ({@link io.claimguard.domain.SeededCases}: a failure names the seed that reproduces it). Where a property
 * needs to know which index and size call for which proof, it asks RFC 6962's recursive definitions of {@code PATH}
 * and {@code SUBPROOF} ({@link #pathShape}, {@link #proofShape}), not the verifier's bit arithmetic.
 */
class MerklePropertyTest {

    private static final int MAX_SIZE = 300;
    /** At most about this many leaves of a tree get their inclusion proof checked: all of a small tree. */
    private static final int PROOFS_PER_TREE = 40;

    /** A tree of random seal leaves, and a leaf index or an old size in it. */
    record Tree(List<byte[]> leaves, int at) {

        int size() {
            return leaves.size();
        }

        byte[] root() {
            return MerkleTree.root(leaves);
        }

        byte[] leaf() {
            return leaves.get(at);
        }

        @Override
        public String toString() {
            return "a tree of " + size() + " leaves, at " + at;
        }
    }

    /** A tree and the bit (0 to 255) to flip in a hash. */
    record Flip(Tree tree, int bit) {
    }

    /** A tree, a leaf index or old size in it, and another index and size (or old and new size) to claim. */
    record Moved(Tree tree, long otherAt, long otherSize) {
    }

    private static Tree leafOfATree(Gen gen) {
        List<byte[]> leaves = sealLeaves(gen, gen.size(1, MAX_SIZE));
        return new Tree(leaves, gen.between(0, leaves.size() - 1));
    }

    /** An old size from 1 to the size, the edges (1, the size, the largest power of two) as often as the rest. */
    private static Tree oldSizeOfATree(Gen gen) {
        List<byte[]> leaves = sealLeaves(gen, gen.size(1, MAX_SIZE));
        int size = leaves.size();
        return new Tree(leaves, gen.pick(1, size, Integer.highestOneBit(size), gen.between(1, size)));
    }

    private static Flip flip(Tree tree, Gen gen) {
        return new Flip(tree, gen.between(0, Rfc6962.HASH_SIZE * 8 - 1));
    }

    /** The other index (or old size) and size: the same half the time each, else anything around them. */
    private static Moved moved(Tree tree, Gen gen) {
        long otherAt = gen.chance(0.5) ? tree.at() : gen.between(-1, tree.size() + 1);
        long otherSize = gen.chance(0.5) ? tree.size() : gen.between(0, 2 * tree.size() + 1);
        return new Moved(tree, otherAt, otherSize);
    }

    @Test
    @DisplayName("Every inclusion proof verifies against the root, and has the length RFC 6962's PATH has")
    void everyInclusionProofVerifies() {
        forAll("every inclusion proof verifies", 100, MerklePropertyTest::leafOfATree, Tree::toString, tree -> {
            byte[] root = tree.root();
            int step = Math.max(1, tree.size() / PROOFS_PER_TREE);
            for (int index = tree.at() % step; index < tree.size(); index += step) {
                checkInclusion(tree.leaves(), index, root);
            }
            checkInclusion(tree.leaves(), tree.size() - 1, root);
        });
    }

    private static void checkInclusion(List<byte[]> leaves, int index, byte[] root) {
        List<byte[]> proof = MerkleTree.inclusionProof(leaves, index);

        assertThat(proof).as("proof of leaf %d", index).hasSize(pathShape(index, leaves.size()).length());
        assertThat(MerkleProofs.rootFromInclusion(leaves.get(index), index, leaves.size(), proof)).isEqualTo(root);
        assertThatCode(() -> MerkleProofs.verifyInclusion(leaves.get(index), index, leaves.size(), proof, root))
                .as("leaf %d", index).doesNotThrowAnyException();
    }

    @Test
    @DisplayName("Every consistency proof from an old size m to a size n >= m verifies against both roots")
    void everyConsistencyProofVerifies() {
        forAll("every consistency proof verifies", 300, MerklePropertyTest::oldSizeOfATree, Tree::toString, tree -> {
            int m = tree.at();
            List<byte[]> proof = MerkleTree.consistencyProof(tree.leaves(), m);
            byte[] oldRoot = MerkleTree.root(tree.leaves().subList(0, m));

            assertThat(proof).hasSize(proofShape(m, tree.size(), true).length());
            assertThatCode(() -> MerkleProofs.verifyConsistency(m, tree.size(), oldRoot, tree.root(), proof))
                    .doesNotThrowAnyException();
        });
    }

    @Test
    @DisplayName("A compact range's root is MerkleTree.root at every size, and it resumes from its hashes")
    void compactRangeRootIsTheTreesRoot() {
        forAll("compact range root", 30, MerklePropertyTest::leafOfATree, Tree::toString, tree -> {
            CompactRange range = new CompactRange();
            for (int size = 1; size <= tree.size(); size++) {
                range.append(tree.leaves().get(size - 1));
                if (size - 1 == tree.at()) {
                    range = CompactRange.resume(range.size(), range.hashes());
                }
                assertThat(range.hashes()).as("size %d", size).hasSize(Integer.bitCount(size));
                assertThat(hex(range.root())).as("size %d", size)
                        .isEqualTo(hex(MerkleTree.root(tree.leaves().subList(0, size))));
            }
        });
    }

    @Test
    @DisplayName("A flipped bit in the leaf, the root or any proof element fails an inclusion proof")
    void flippedBitFailsInclusion() {
        forAll("a flipped bit fails an inclusion proof", 300, gen -> flip(leafOfATree(gen), gen), Flip::toString,
                flip -> {
                    Tree tree = flip.tree();
                    int bit = flip.bit();
                    byte[] root = tree.root();
                    List<byte[]> proof = MerkleTree.inclusionProof(tree.leaves(), tree.at());

                    assertMismatch(() -> MerkleProofs.verifyInclusion(flipBit(tree.leaf(), bit), tree.at(),
                            tree.size(), proof, root));
                    assertMismatch(() -> MerkleProofs.verifyInclusion(tree.leaf(), tree.at(), tree.size(), proof,
                            flipBit(root, bit)));
                    for (int element = 0; element < proof.size(); element++) {
                        List<byte[]> flipped = flipBit(proof, element, bit);
                        assertMismatch(() -> MerkleProofs.verifyInclusion(tree.leaf(), tree.at(), tree.size(), flipped,
                                root));
                    }
                });
    }

    @Test
    @DisplayName("A flipped bit in either root or any proof element fails a consistency proof")
    void flippedBitFailsConsistency() {
        forAll("a flipped bit fails a consistency proof", 300, gen -> flip(oldSizeOfATree(gen), gen), Flip::toString,
                flip -> {
                    Tree tree = flip.tree();
                    int m = tree.at();
                    int n = tree.size();
                    int bit = flip.bit();
                    byte[] oldRoot = MerkleTree.root(tree.leaves().subList(0, m));
                    byte[] newRoot = tree.root();
                    List<byte[]> proof = MerkleTree.consistencyProof(tree.leaves(), m);

                    assertMismatch(() -> MerkleProofs.verifyConsistency(m, n, flipBit(oldRoot, bit), newRoot, proof));
                    assertMismatch(() -> MerkleProofs.verifyConsistency(m, n, oldRoot, flipBit(newRoot, bit), proof));
                    for (int element = 0; element < proof.size(); element++) {
                        List<byte[]> flipped = flipBit(proof, element, bit);
                        assertMismatch(() -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot, flipped));
                    }
                });
    }

    @Test
    @DisplayName("An inclusion proof never verifies for another leaf of the same tree")
    void inclusionProofIsForOneLeaf() {
        forAll("an inclusion proof is for one leaf", 300, gen -> moved(leafOfATree(gen), gen), Moved::toString,
                moved -> {
                    Tree tree = moved.tree();
                    long other = moved.otherAt() == tree.at() ? tree.at() + 1 : moved.otherAt();
                    List<byte[]> proof = MerkleTree.inclusionProof(tree.leaves(), tree.at());

                    assertThatThrownBy(() -> MerkleProofs.verifyInclusion(tree.leaf(), other, tree.size(), proof,
                            tree.root())).isInstanceOf(ProofException.class);
                });
    }

    /**
     * The proof binds the leaf to the root, not the size: a size whose audit path for the index has the same shape
     * takes the same proof (leaf 0 of 3 and of 4 leaves both have a right sibling at levels 0 and 1). That is why a
     * receipt's tree size must come from the signed checkpoint that carries the root.
     */
    @Test
    @DisplayName("An inclusion proof verifies at another index or size exactly when they call for the same audit path")
    void inclusionProofVerifiesExactlyForTheSamePath() {
        Outcomes outcomes = new Outcomes();
        forAll("an inclusion proof verifies for its path", 500, gen -> moved(leafOfATree(gen), gen), Moved::toString,
                moved -> {
                    Tree tree = moved.tree();
                    long index = moved.otherAt();
                    long size = moved.otherSize();
                    List<byte[]> proof = MerkleTree.inclusionProof(tree.leaves(), tree.at());

                    outcomes.expect(0 <= index && index < size
                            && pathShape(index, size).equals(pathShape(tree.at(), tree.size())), size != tree.size(),
                            () -> MerkleProofs.verifyInclusion(tree.leaf(), index, size, proof, tree.root()));
                });
        outcomes.assertBothSeen();
    }

    @Test
    @DisplayName("A consistency proof verifies for other sizes exactly when they call for the same proof")
    void consistencyProofVerifiesExactlyForTheSameShape() {
        Outcomes outcomes = new Outcomes();
        forAll("a consistency proof verifies for its shape", 500, gen -> moved(oldSizeOfATree(gen), gen),
                Moved::toString, moved -> {
                    Tree tree = moved.tree();
                    long oldSize = moved.otherAt();
                    long newSize = moved.otherSize();
                    byte[] oldRoot = MerkleTree.root(tree.leaves().subList(0, tree.at()));
                    List<byte[]> proof = MerkleTree.consistencyProof(tree.leaves(), tree.at());

                    outcomes.expect(0 < oldSize && oldSize <= newSize
                            && proofShape(oldSize, newSize, true).equals(proofShape(tree.at(), tree.size(), true)),
                            oldSize != tree.at() || newSize != tree.size(),
                            () -> MerkleProofs.verifyConsistency(oldSize, newSize, oldRoot, tree.root(), proof));
                });
        outcomes.assertBothSeen();
    }

    /** Checks each claim verifies or fails as expected, and counts both, so that a property is seen to go both ways. */
    private static final class Outcomes {

        private final AtomicInteger otherClaimsThatVerify = new AtomicInteger();
        private final AtomicInteger claimsThatFail = new AtomicInteger();

        void expect(boolean verifies, boolean otherClaim, ThrowingCallable verification) {
            if (verifies) {
                assertThatCode(verification).doesNotThrowAnyException();
                if (otherClaim) {
                    otherClaimsThatVerify.incrementAndGet();
                }
            } else {
                assertThatThrownBy(verification).isInstanceOf(ProofException.class);
                claimsThatFail.incrementAndGet();
            }
        }

        void assertBothSeen() {
            assertThat(otherClaimsThatVerify).as("cases where another claim takes the proof").hasPositiveValue();
            assertThat(claimsThatFail).as("cases where the claim fails").hasPositiveValue();
        }
    }

    private static void assertMismatch(ThrowingCallable verification) {
        assertThatThrownBy(verification).isInstanceOfSatisfying(ProofException.class,
                failure -> assertThat(failure.reason()).isEqualTo(ROOT_MISMATCH));
    }

    /**
     * RFC 6962's {@code PATH(m, D[n])} written as the side of each hash, from the leaf up: {@code R} a right sibling
     * ({@code MTH(D[k:n])}), {@code L} a left one ({@code MTH(D[0:k])}).
     */
    static String pathShape(long m, long n) {
        if (n == 1) {
            return "";
        }
        long k = Long.highestOneBit(n - 1);
        return m < k ? pathShape(m, k) + "R" : pathShape(m - k, n - k) + "L";
    }

    /**
     * RFC 6962's {@code SUBPROOF(m, D[n], b)} written the same way, with {@code S} for the root of the old tree's
     * last complete subtree, handed over when it is not the old tree itself.
     */
    static String proofShape(long m, long n, boolean oldRootKnown) {
        if (m == n) {
            return oldRootKnown ? "" : "S";
        }
        long k = Long.highestOneBit(n - 1);
        return m <= k ? proofShape(m, k, oldRootKnown) + "R" : proofShape(m - k, n - k, false) + "L";
    }
}
