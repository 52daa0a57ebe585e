package io.claimguard.merkle;

import static io.claimguard.merkle.TestHashes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The streamed prover gives what the in-memory one gives over the same leaves, for every leaf of every small tree. */
class StreamedInclusionTest {

    @Test
    @DisplayName("Every leaf of every tree of 1 to 70 leaves: the same root and audit path as MerkleTree's")
    void sameAsInMemory() {
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            leaves.add(Rfc6962.leafHash(new byte[] {(byte) i, (byte) (i >> 8)}));
        }
        for (int size = 1; size <= leaves.size(); size++) {
            List<byte[]> tree = leaves.subList(0, size);
            for (int index = 0; index < size; index++) {
                StreamedInclusion streamed = new StreamedInclusion(index, size);
                tree.forEach(streamed::append);

                assertThat(hex(streamed.root())).as("root of %d", size).isEqualTo(hex(MerkleTree.root(tree)));
                assertThat(hex(streamed.proof())).as("leaf %d of %d", index, size)
                        .isEqualTo(hex(MerkleTree.inclusionProof(tree, index)));
            }
        }
    }

    @Test
    @DisplayName("An index outside the tree, a proof before the last leaf and a leaf too many are refused")
    void refusals() {
        assertThatThrownBy(() -> new StreamedInclusion(3, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf index 3 is out of range for a tree of 3 leaves (0 <= index < size)");
        StreamedInclusion streamed = new StreamedInclusion(0, 2);
        byte[] leaf = Rfc6962.leafHash(new byte[0]);
        streamed.append(leaf);
        assertThatThrownBy(streamed::proof).isInstanceOf(IllegalStateException.class)
                .hasMessage("1 of the tree's 2 leaves were appended");
        streamed.append(leaf);
        assertThatThrownBy(() -> streamed.append(leaf)).isInstanceOf(IllegalStateException.class)
                .hasMessage("all 2 leaves were appended already");
    }
}
