package io.claimguard.merkle;

import static io.claimguard.merkle.PublishedVectors.COMPACT_RANGES;
import static io.claimguard.merkle.PublishedVectors.NODE_HASHES;
import static io.claimguard.merkle.PublishedVectors.PROOF_TEST_CONSISTENCY;
import static io.claimguard.merkle.PublishedVectors.PROOF_TEST_INCLUSION;
import static io.claimguard.merkle.PublishedVectors.ROOTS;
import static io.claimguard.merkle.PublishedVectors.VERIFY_TEST_CONSISTENCY;
import static io.claimguard.merkle.PublishedVectors.VERIFY_TEST_INCLUSION;
import static io.claimguard.merkle.PublishedVectors.leafHashes;
import static io.claimguard.merkle.PublishedVectors.root;
import static io.claimguard.merkle.TestHashes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.merkle.PublishedVectors.ConsistencyVector;
import io.claimguard.merkle.PublishedVectors.InclusionVector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The package against the published vectors of the 8-leaf reference tree ({@link PublishedVectors}: where from). */
class PublishedVectorsTest {

    /** {@code verify_test.go} {@code sha256SomeHash}: a 32-byte hash that is no node of the tree. */
    private static final byte[] SOME_HASH = hex("abacaba000000000000000000000000000000000000000000060061e00123456");
    private static final byte[] EMPTY_TREE_HASH = hex(PublishedVectors.EMPTY_ROOT);

    @Test
    @DisplayName("The published leaf inputs hash to the published leaf hashes, and each level to the next")
    void nodeHashesAreThePublishedOnes() {
        assertThat(hex(leafHashes())).isEqualTo(NODE_HASHES.get(0));
        for (int level = 1; level < NODE_HASHES.size(); level++) {
            List<String> below = NODE_HASHES.get(level - 1);
            for (int i = 0; i < NODE_HASHES.get(level).size(); i++) {
                assertThat(hex(Rfc6962.nodeHash(hex(below.get(2 * i)), hex(below.get(2 * i + 1)))))
                        .as("node %d at level %d", i, level).isEqualTo(NODE_HASHES.get(level).get(i));
            }
        }
    }

    @Test
    @DisplayName("The roots of the first 0 to 8 leaves are the published roots, whole and incrementally")
    void rootsAreThePublishedOnes() {
        List<byte[]> leaves = leafHashes();
        CompactRange range = new CompactRange();
        assertThat(hex(range.root())).isEqualTo(ROOTS.get(0));
        for (int size = 0; size <= leaves.size(); size++) {
            if (size > 0) {
                range.append(leaves.get(size - 1));
            }
            assertThat(hex(MerkleTree.root(leaves.subList(0, size)))).as("MTH of %d leaves", size)
                    .isEqualTo(ROOTS.get(size));
            assertThat(hex(range.root())).as("compact range of %d leaves", size).isEqualTo(ROOTS.get(size));
            assertThat(range.size()).isEqualTo(size);
        }
    }

    @Test
    @DisplayName("A compact range keeps the published compact trees, and resumes from them")
    void compactRangeKeepsThePublishedHashes() {
        List<byte[]> leaves = leafHashes();
        CompactRange range = new CompactRange();
        for (int size = 0; size <= leaves.size(); size++) {
            if (size > 0) {
                range.append(leaves.get(size - 1));
            }
            assertThat(hex(range.hashes())).as("range of %d leaves", size).isEqualTo(hex(COMPACT_RANGES.get(size)));
            assertThat(hex(CompactRange.resume(size, COMPACT_RANGES.get(size)).root())).isEqualTo(ROOTS.get(size));
        }
    }

    static Stream<InclusionVector> inclusionVectors() {
        return Stream.concat(VERIFY_TEST_INCLUSION.stream(), PROOF_TEST_INCLUSION.stream());
    }

    static Stream<ConsistencyVector> consistencyVectors() {
        return Stream.concat(VERIFY_TEST_CONSISTENCY.stream(), PROOF_TEST_CONSISTENCY.stream());
    }

    @ParameterizedTest(name = "leaf {0}")
    @MethodSource("inclusionVectors")
    @DisplayName("The prover's inclusion proof is the published one, and it verifies")
    void inclusionProofIsThePublishedOne(InclusionVector vector) {
        List<byte[]> leaves = leafHashes().subList(0, (int) vector.size());
        byte[] leaf = leaves.get((int) vector.index());

        assertThat(hex(MerkleTree.inclusionProof(leaves, vector.index()))).isEqualTo(hex(vector.proof()));
        assertThat(hex(MerkleProofs.rootFromInclusion(leaf, vector.index(), vector.size(), vector.proof())))
                .isEqualTo(ROOTS.get((int) vector.size()));
        assertThatCode(() -> MerkleProofs.verifyInclusion(leaf, vector.index(), vector.size(), vector.proof(),
                root(vector.size()))).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "from {0}")
    @MethodSource("consistencyVectors")
    @DisplayName("The prover's consistency proof is the published one, and it verifies")
    void consistencyProofIsThePublishedOne(ConsistencyVector vector) {
        List<byte[]> leaves = leafHashes().subList(0, (int) vector.newSize());

        assertThat(hex(MerkleTree.consistencyProof(leaves, vector.oldSize()))).isEqualTo(hex(vector.proof()));
        assertThatCode(() -> MerkleProofs.verifyConsistency(vector.oldSize(), vector.newSize(), root(vector.oldSize()),
                root(vector.newSize()), vector.proof())).doesNotThrowAnyException();
    }

    /** {@code verify_test.go} {@code corruptInclusionProof}: each changed claim fails, naming what is wrong. */
    @ParameterizedTest(name = "leaf {0}")
    @MethodSource("inclusionVectors")
    @DisplayName("Every published corruption of an inclusion proof fails to verify")
    void corruptedInclusionProofsFail(InclusionVector vector) {
        long index = vector.index();
        long size = vector.size();
        List<byte[]> proof = vector.proof();
        byte[] root = root(size);
        byte[] leaf = leafHashes().get((int) index);

        Map<String, Runnable> probes = new LinkedHashMap<>();
        probes.put("index - 1", () -> MerkleProofs.verifyInclusion(leaf, index - 1, size, proof, root));
        probes.put("index + 1", () -> MerkleProofs.verifyInclusion(leaf, index + 1, size, proof, root));
        probes.put("index ^ 2", () -> MerkleProofs.verifyInclusion(leaf, index ^ 2, size, proof, root));
        probes.put("size * 2", () -> MerkleProofs.verifyInclusion(leaf, index, size * 2, proof, root));
        probes.put("size / 2", () -> MerkleProofs.verifyInclusion(leaf, index, size / 2, proof, root));
        probes.put("wrong leaf", () -> MerkleProofs.verifyInclusion(ascii("WrongLeaf"), index, size, proof, root));
        probes.put("empty root", () -> MerkleProofs.verifyInclusion(leaf, index, size, proof, EMPTY_TREE_HASH));
        probes.put("random root", () -> MerkleProofs.verifyInclusion(leaf, index, size, proof, SOME_HASH));
        probes.put("trailing garbage", () -> MerkleProofs.verifyInclusion(leaf, index, size, append(proof, new byte[0]),
                root));
        probes.put("trailing root", () -> MerkleProofs.verifyInclusion(leaf, index, size, append(proof, root), root));
        probes.put("preceding garbage", () -> MerkleProofs.verifyInclusion(leaf, index, size,
                prepend(proof, new byte[0]), root));
        probes.put("preceding root", () -> MerkleProofs.verifyInclusion(leaf, index, size, prepend(proof, root), root));
        for (int i = 0; i < proof.size(); i++) {
            List<byte[]> modified = TestHashes.flipBit(proof, i, 3);
            probes.put("modified proof[" + i + "] bit 3", () -> MerkleProofs.verifyInclusion(leaf, index, size,
                    modified, root));
        }
        if (!proof.isEmpty()) {
            probes.put("removed component", () -> MerkleProofs.verifyInclusion(leaf, index, size,
                    proof.subList(0, proof.size() - 1), root));
        }
        if (proof.size() > 1) {
            List<byte[]> inserted = new ArrayList<>(proof);
            inserted.add(1, SOME_HASH);
            probes.put("inserted component", () -> MerkleProofs.verifyInclusion(leaf, index, size, inserted, root));
        }
        assertAllFail(probes);
    }

    /** {@code verify_test.go} {@code corruptConsistencyProof}, for the proofs that are not empty. */
    @ParameterizedTest(name = "from {0}")
    @MethodSource("consistencyVectors")
    @DisplayName("Every published corruption of a consistency proof fails to verify")
    void corruptedConsistencyProofsFail(ConsistencyVector vector) {
        List<byte[]> proof = vector.proof();
        if (proof.isEmpty()) {
            return;
        }
        long m = vector.oldSize();
        long n = vector.newSize();
        byte[] oldRoot = root(m);
        byte[] newRoot = root(n);
        byte[] wrongRoot = ascii("WrongRoot");

        Map<String, Runnable> probes = new LinkedHashMap<>();
        probes.put("old size - 1", () -> MerkleProofs.verifyConsistency(m - 1, n, oldRoot, newRoot, proof));
        probes.put("old size + 1", () -> MerkleProofs.verifyConsistency(m + 1, n, oldRoot, newRoot, proof));
        probes.put("old size ^ 2", () -> MerkleProofs.verifyConsistency(m ^ 2, n, oldRoot, newRoot, proof));
        probes.put("new size * 2", () -> MerkleProofs.verifyConsistency(m, n * 2, oldRoot, newRoot, proof));
        probes.put("new size / 2", () -> MerkleProofs.verifyConsistency(m, n / 2, oldRoot, newRoot, proof));
        probes.put("wrong old root", () -> MerkleProofs.verifyConsistency(m, n, wrongRoot, newRoot, proof));
        probes.put("wrong new root", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, wrongRoot, proof));
        probes.put("swapped roots", () -> MerkleProofs.verifyConsistency(m, n, newRoot, oldRoot, proof));
        probes.put("empty proof", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot, List.of()));
        probes.put("trailing garbage", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                append(proof, new byte[0])));
        probes.put("trailing old root", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                append(proof, oldRoot)));
        probes.put("trailing new root", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                append(proof, newRoot)));
        probes.put("preceding garbage", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                prepend(proof, new byte[0])));
        probes.put("preceding old root", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                prepend(proof, oldRoot)));
        probes.put("preceding new root", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                prepend(proof, newRoot)));
        probes.put("preceding proof[0]", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                prepend(proof, proof.get(0))));
        probes.put("truncated proof", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                proof.subList(0, proof.size() - 1)));
        for (int i = 0; i < proof.size(); i++) {
            List<byte[]> modified = TestHashes.flipBit(proof, i, 4);
            probes.put("modified proof[" + i + "] bit 4", () -> MerkleProofs.verifyConsistency(m, n, oldRoot, newRoot,
                    modified));
        }
        assertAllFail(probes);
    }

    private static void assertAllFail(Map<String, Runnable> probes) {
        probes.forEach((name, probe) -> assertThatThrownBy(probe::run).as(name).isInstanceOf(ProofException.class));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static List<byte[]> append(List<byte[]> proof, byte[] hash) {
        List<byte[]> extended = new ArrayList<>(proof);
        extended.add(hash);
        return extended;
    }

    private static List<byte[]> prepend(List<byte[]> proof, byte[] hash) {
        List<byte[]> extended = new ArrayList<>(proof);
        extended.add(0, hash);
        return extended;
    }
}
