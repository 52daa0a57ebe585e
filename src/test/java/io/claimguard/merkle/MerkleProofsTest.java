package io.claimguard.merkle;

import static io.claimguard.merkle.PublishedVectors.root;
import static io.claimguard.merkle.ProofException.Reason.INDEX_OUT_OF_RANGE;
import static io.claimguard.merkle.ProofException.Reason.MALFORMED_HASH;
import static io.claimguard.merkle.ProofException.Reason.ROOT_MISMATCH;
import static io.claimguard.merkle.ProofException.Reason.SIZE_OUT_OF_RANGE;
import static io.claimguard.merkle.ProofException.Reason.WRONG_PROOF_LENGTH;
import static io.claimguard.merkle.TestHashes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.merkle.ProofException.Reason;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The verifier's edge cases and messages; its acceptance of good proofs and refusal of bad ones are checked by the
 * published vectors and the properties. The claims of {@code verify_test.go}'s {@code TestVerifyInclusion},
 * {@code TestVerifyInclusionSingleEntry} and {@code TestVerifyConsistency} are here, but for two on purpose: that
 * test accepts a consistency "proof" from size 0 and roots that are not 32 bytes long, both refused here.
 */
class MerkleProofsTest {

    private static final List<byte[]> EIGHT = PublishedVectors.leafHashes();
    private static final byte[] SOME_HASH = hex("abacaba000000000000000000000000000000000000000000060061e00123456");
    private static final byte[] EMPTY_ROOT = Rfc6962.emptyRoot();

    @Test
    @DisplayName("In a tree of one leaf the leaf hash is the root and the proof is empty")
    void singleLeaf() {
        byte[] hash = Rfc6962.leafHash("data".getBytes());

        assertThatCode(() -> MerkleProofs.verifyInclusion(hash, 0, 1, List.of(), hash)).doesNotThrowAnyException();
        assertFails(() -> MerkleProofs.verifyInclusion(hash, 0, 1, List.of(), new byte[0]), MALFORMED_HASH,
                "root has 0 bytes, expected 32");
        assertFails(() -> MerkleProofs.verifyInclusion(new byte[0], 0, 1, List.of(), hash), MALFORMED_HASH,
                "leaf hash has 0 bytes, expected 32");
        assertFails(() -> MerkleProofs.verifyInclusion(hash, 0, 1, List.of(), SOME_HASH), ROOT_MISMATCH,
                "the proof leads to " + hex(hash) + ", not to the root " + hex(SOME_HASH));
    }

    @Test
    @DisplayName("A leaf index at or past the tree size, or negative, is out of range")
    void indexOutOfRange() {
        for (long[] indexAndSize : new long[][] {{0, 0}, {1, 0}, {2, 1}, {8, 8}, {-1, 8}}) {
            long index = indexAndSize[0];
            long size = indexAndSize[1];
            assertFails(() -> MerkleProofs.verifyInclusion(SOME_HASH, index, size, List.of(), EMPTY_ROOT),
                    INDEX_OUT_OF_RANGE, "leaf index " + index + " is out of range for a tree of " + size
                            + " leaves (0 <= index < size)");
        }
    }

    @Test
    @DisplayName("An inclusion proof of the wrong length is told apart from a wrong one")
    void inclusionProofOfTheWrongLength() {
        List<byte[]> proof = MerkleTree.inclusionProof(EIGHT, 0);

        assertFails(() -> MerkleProofs.verifyInclusion(EIGHT.get(0), 0, 8, proof.subList(0, 2), root(8)),
                WRONG_PROOF_LENGTH, "an inclusion proof for leaf 0 of a tree of 8 leaves has 3 hashes, this one has 2");
        assertFails(() -> MerkleProofs.verifyInclusion(EIGHT.get(0), 0, 8, List.of(proof.get(0), proof.get(1),
                proof.get(2), SOME_HASH), root(8)), WRONG_PROOF_LENGTH,
                "an inclusion proof for leaf 0 of a tree of 8 leaves has 3 hashes, this one has 4");
        assertFails(() -> MerkleProofs.verifyInclusion(EIGHT.get(0), 0, 8, List.of(proof.get(0), new byte[31],
                proof.get(2)), root(8)), MALFORMED_HASH, "proof element 1 has 31 bytes, expected 32");
    }

    @Test
    @DisplayName("The root an inclusion proof leads to is the root of the tree it was made in")
    void rootFromInclusion() {
        for (int size = 1; size <= EIGHT.size(); size++) {
            List<byte[]> leaves = EIGHT.subList(0, size);
            for (int index = 0; index < size; index++) {
                assertThat(MerkleProofs.rootFromInclusion(leaves.get(index), index, size,
                        MerkleTree.inclusionProof(leaves, index))).isEqualTo(root(size));
            }
        }
    }

    @Test
    @DisplayName("Equal sizes are consistent by an empty proof when the roots are equal, and only then")
    void equalSizes() {
        for (long size = 1; size <= EIGHT.size(); size++) {
            long n = size;
            assertThatCode(() -> MerkleProofs.verifyConsistency(n, n, root(n), root(n), List.of()))
                    .doesNotThrowAnyException();
        }
        assertFails(() -> MerkleProofs.verifyConsistency(3, 3, root(3), root(4), List.of()), ROOT_MISMATCH,
                "old and new size are both 3 but the old root " + hex(root(3)) + " is not the new root "
                        + hex(root(4)));
        assertFails(() -> MerkleProofs.verifyConsistency(1, 1, EMPTY_ROOT, EMPTY_ROOT, List.of(EMPTY_ROOT)),
                WRONG_PROOF_LENGTH, "a consistency proof between equal sizes has 0 hashes, this one has 1");
    }

    /**
     * RFC 9162 section 2.1.4 defines consistency proofs for {@code 0 < first < second}: from the empty tree there is
     * nothing to prove (it is a prefix of every tree), so the claim is refused rather than accepted for any roots.
     */
    @Test
    @DisplayName("A consistency proof from the empty tree is refused, as is one from a larger tree")
    void oldSizeOutOfRange() {
        String rule = " cannot be proved consistent (0 < oldSize <= newSize: there is no consistency proof from the"
                + " empty tree)";
        assertFails(() -> MerkleProofs.verifyConsistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, List.of()), SIZE_OUT_OF_RANGE,
                "old size 0 and new size 0" + rule);
        assertFails(() -> MerkleProofs.verifyConsistency(0, 1, EMPTY_ROOT, root(1), List.of()), SIZE_OUT_OF_RANGE,
                "old size 0 and new size 1" + rule);
        assertFails(() -> MerkleProofs.verifyConsistency(0, 8, EMPTY_ROOT, root(8), List.of()), SIZE_OUT_OF_RANGE,
                "old size 0 and new size 8" + rule);
        assertFails(() -> MerkleProofs.verifyConsistency(2, 1, root(2), root(1), List.of()), SIZE_OUT_OF_RANGE,
                "old size 2 and new size 1" + rule);
        assertFails(() -> MerkleProofs.verifyConsistency(-1, 1, root(2), root(1), List.of()), SIZE_OUT_OF_RANGE,
                "old size -1 and new size 1" + rule);
    }

    @Test
    @DisplayName("A consistency proof of the wrong length, or leading to another old or new root, says which")
    void consistencyFailuresSayWhatIsWrong() {
        List<byte[]> proof = MerkleTree.consistencyProof(EIGHT, 6);

        assertFails(() -> MerkleProofs.verifyConsistency(1, 2, root(1), root(2), List.of()), WRONG_PROOF_LENGTH,
                "a consistency proof from 1 to 2 leaves has 1 hashes, this one has 0");
        assertFails(() -> MerkleProofs.verifyConsistency(6, 8, TestHashes.flipBit(root(6), 0), root(8), proof),
                ROOT_MISMATCH, "the proof leads to " + hex(root(6)) + ", not to the old root "
                        + hex(TestHashes.flipBit(root(6), 0)));
        assertFails(() -> MerkleProofs.verifyConsistency(6, 8, root(6), TestHashes.flipBit(root(8), 255), proof),
                ROOT_MISMATCH, "the proof leads to " + hex(root(8)) + ", not to the new root "
                        + hex(TestHashes.flipBit(root(8), 255)));
        assertFails(() -> MerkleProofs.verifyConsistency(6, 8, root(6), new byte[64], proof), MALFORMED_HASH,
                "new root has 64 bytes, expected 32");
    }

    @Test
    @DisplayName("Null is the caller's mistake, not a failed proof")
    void nullIsRefused() {
        assertThatThrownBy(() -> MerkleProofs.verifyInclusion(null, 0, 1, List.of(), EMPTY_ROOT))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("leaf hash must not be null");
        assertThatThrownBy(() -> MerkleProofs.verifyInclusion(EMPTY_ROOT, 0, 1, null, EMPTY_ROOT))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("proof must not be null");
        assertThatThrownBy(() -> MerkleProofs.verifyInclusion(EMPTY_ROOT, 0, 1, List.of(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("root must not be null");
        assertThatThrownBy(() -> MerkleProofs.verifyConsistency(1, 2, null, EMPTY_ROOT, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("old root must not be null");
        assertThatThrownBy(() -> MerkleProofs.verifyConsistency(1, 2, EMPTY_ROOT, EMPTY_ROOT,
                Arrays.asList(EMPTY_ROOT, null))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("proof element 1 must not be null");
    }

    private static void assertFails(ThrowingCallable verification, Reason reason, String message) {
        assertThatThrownBy(verification).isInstanceOfSatisfying(ProofException.class,
                failure -> assertThat(failure.reason()).isEqualTo(reason)).hasMessage(message);
    }
}
