package io.claimguard.merkle;

import static io.claimguard.merkle.TestHashes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The prover's edge cases and refusals; its proofs are checked by the published vectors and the properties. */
class MerkleTreeTest {

    private static final List<byte[]> EIGHT = PublishedVectors.leafHashes();

    @Test
    @DisplayName("The root of no leaves is the empty root, of one leaf that leaf's hash")
    void smallestTrees() {
        assertThat(MerkleTree.root(List.of())).isEqualTo(Rfc6962.emptyRoot());
        assertThat(MerkleTree.root(EIGHT.subList(0, 1))).isEqualTo(EIGHT.get(0)).isNotSameAs(EIGHT.get(0));
        assertThat(MerkleTree.inclusionProof(EIGHT.subList(0, 1), 0)).isEmpty();
        assertThat(MerkleTree.consistencyProof(EIGHT.subList(0, 1), 1)).isEmpty();
    }

    @Test
    @DisplayName("The consistency proof from a tree to itself is empty, whatever its size")
    void consistencyProofToTheSameSizeIsEmpty() {
        for (int size = 1; size <= EIGHT.size(); size++) {
            assertThat(MerkleTree.consistencyProof(EIGHT.subList(0, size), size)).as("size %d", size).isEmpty();
        }
    }

    @Test
    @DisplayName("An index outside the tree is refused, naming the index and the size")
    void indexOutsideTheTreeIsRefused() {
        assertThatThrownBy(() -> MerkleTree.inclusionProof(EIGHT.subList(0, 3), 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf index 3 is out of range for a tree of 3 leaves (0 <= index < size)");
        assertThatThrownBy(() -> MerkleTree.inclusionProof(EIGHT, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("leaf index -1 is out of range for a tree of 8 leaves");
        assertThatThrownBy(() -> MerkleTree.inclusionProof(List.of(), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("leaf index 0 is out of range for a tree of 0 leaves");
    }

    @Test
    @DisplayName("A consistency proof from the empty tree, or from a larger one, is refused")
    void oldSizeOutsideTheTreeIsRefused() {
        assertThatThrownBy(() -> MerkleTree.consistencyProof(EIGHT, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("old size 0 is out of range for a tree of 8 leaves (0 < oldSize <= size: there is no"
                        + " consistency proof from the empty tree)");
        assertThatThrownBy(() -> MerkleTree.consistencyProof(List.of(), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("old size 0 is out of range for a tree of 0 leaves");
        assertThatThrownBy(() -> MerkleTree.consistencyProof(EIGHT.subList(0, 5), 6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("old size 6 is out of range for a tree of 5 leaves");
    }

    @Test
    @DisplayName("A leaf hash that is not 32 bytes, or null, is refused by number")
    void badLeafHashesAreRefused() {
        List<byte[]> leaves = new ArrayList<>(EIGHT);
        leaves.set(2, new byte[31]);
        List<byte[]> withNull = new ArrayList<>(EIGHT);
        withNull.set(5, null);

        assertThatThrownBy(() -> MerkleTree.root(leaves)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf hash 2 has 31 bytes, expected 32");
        assertThatThrownBy(() -> MerkleTree.inclusionProof(withNull, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf hash 5 must not be null");
        assertThatThrownBy(() -> MerkleTree.consistencyProof(null, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf hashes must not be null");
    }

    @Test
    @DisplayName("A proof hands out copies: changing one changes neither the leaves nor the next proof")
    void proofsAreCopies() {
        List<byte[]> proof = MerkleTree.inclusionProof(EIGHT.subList(0, 2), 0);

        assertThat(proof.get(0)).isEqualTo(EIGHT.get(1)).isNotSameAs(EIGHT.get(1));
        assertThatThrownBy(() -> proof.add(new byte[32])).isInstanceOf(UnsupportedOperationException.class);
        proof.get(0)[0] ^= 1;
        assertThat(MerkleTree.inclusionProof(EIGHT.subList(0, 2), 0).get(0)).isEqualTo(EIGHT.get(1));
    }

    @Test
    @DisplayName("Any list of leaf hashes will do, not only one with random access")
    void anyListWillDo() {
        assertThat(hex(MerkleTree.inclusionProof(new LinkedList<>(EIGHT), 5)))
                .isEqualTo(hex(MerkleTree.inclusionProof(EIGHT, 5)));
    }

    /** A tree of a hundred thousand leaves, not a power of two: the proofs are short and verify. */
    @Test
    @DisplayName("Proofs in a tree of 131,075 leaves have 18 hashes or fewer and verify")
    void largeTree() {
        int size = (1 << 17) + 3;
        List<byte[]> leaves = new ArrayList<>(size);
        CompactRange range = new CompactRange();
        for (int i = 0; i < size; i++) {
            byte[] seal = Arrays.copyOf(Integer.toString(i).getBytes(), Rfc6962.HASH_SIZE);
            leaves.add(Rfc6962.leafHash(seal));
            range.append(leaves.get(i));
        }
        byte[] root = MerkleTree.root(leaves);
        assertThat(root).isEqualTo(range.root());

        for (long index : new long[] {0, 65_537, size - 3, size - 1}) {
            List<byte[]> proof = MerkleTree.inclusionProof(leaves, index);
            assertThat(proof).as("proof of %d", index).hasSizeLessThanOrEqualTo(18);
            assertThatCode(() -> MerkleProofs.verifyInclusion(leaves.get((int) index), index, size, proof, root))
                    .doesNotThrowAnyException();
        }
        List<byte[]> consistency = MerkleTree.consistencyProof(leaves, 100_000);
        byte[] oldRoot = MerkleTree.root(leaves.subList(0, 100_000));
        assertThatCode(() -> MerkleProofs.verifyConsistency(100_000, size, oldRoot, root, consistency))
                .doesNotThrowAnyException();
    }
}
