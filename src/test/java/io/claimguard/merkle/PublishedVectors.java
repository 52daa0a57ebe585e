package io.claimguard.merkle;

import static io.claimguard.merkle.TestHashes.hex;

import java.util.Arrays;
import java.util.List;

/**
 * The published RFC 6962 test vectors of the 8-leaf reference tree, as the certificate-transparency and
 * transparency-dev projects give them, copied from these files (read 2026-12-04):
 * <ul>
 *   <li>github.com/transparency-dev/merkle {@code testonly/constants.go} (commit 582a6ad1): {@code LeafInputs},
 *       {@code NodeHashes}, {@code RootHashes}, {@code CompactTrees}, {@code EmptyRootHash};</li>
 *   <li>github.com/transparency-dev/merkle {@code proof/verify_test.go} (commit 02194e9a): {@code inclusionProofs},
 *       {@code consistencyProofs}, {@code roots}, the same as google/certificate-transparency
 *       {@code cpp/merkletree/merkle_tree_test.cc} (commit 0e901cac) {@code kSHA256Paths}, {@code kSHA256Proofs},
 *       {@code kSHA256Roots}, which has all but the consistency proof from 6 to 7;</li>
 *   <li>github.com/transparency-dev/merkle {@code proof/proof_test.go} (commit 02a3e202): {@code TestInclusion} and
 *       {@code TestConsistency}, which name the nodes of each proof by level and index; the cases that fit the
 *       8-leaf tree are here, each node resolved to its hash in {@code NodeHashes}, and an ephemeral node (the
 *       {@code rehash} of a right edge not complete in the smaller tree) to the hash of its two nodes.</li>
 * </ul>
 * The leaf indexes of {@code verify_test.go} and {@code merkle_tree_test.cc} count from 1; here from 0.
 */
final class PublishedVectors {

    /** {@code LeafInputs}: the leaf data, in hex. */
    static final List<String> LEAF_INPUTS = List.of("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
            "606162636465666768696a6b6c6d6e6f");

    /**
     * {@code NodeHashes}: the hashes of every complete subtree of the 8-leaf tree, by level (0: the leaf hashes) and
     * index within the level.
     */
    static final List<List<String>> NODE_HASHES = List.of(
            List.of("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
                    "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                    "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
                    "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                    "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1"),
            List.of("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0"),
            List.of("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
            List.of("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"));

    /** {@code EmptyRootHash}: SHA-256 of the empty string. */
    static final String EMPTY_ROOT = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    /** {@code RootHashes}: the root of the tree of the first n leaves, n from 0 to 8. */
    static final List<String> ROOTS = List.of(EMPTY_ROOT,
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");

    /** {@code CompactTrees}: the compact range of the tree of the first n leaves, n from 0 to 8, as nodes. */
    static final List<List<byte[]>> COMPACT_RANGES = List.of(
            List.of(),
            List.of(node(0, 0)),
            List.of(node(1, 0)),
            List.of(node(1, 0), node(0, 2)),
            List.of(node(2, 0)),
            List.of(node(2, 0), node(0, 4)),
            List.of(node(2, 0), node(1, 2)),
            List.of(node(2, 0), node(1, 2), node(0, 6)),
            List.of(node(3, 0)));

    record InclusionVector(long index, long size, List<byte[]> proof) {

        @Override
        public String toString() {
            return "leaf " + index + " of " + size;
        }
    }

    record ConsistencyVector(long oldSize, long newSize, List<byte[]> proof) {

        @Override
        public String toString() {
            return oldSize + " to " + newSize;
        }
    }

    /** {@code verify_test.go} {@code inclusionProofs} (and {@code kSHA256Paths}), but the first: leaf 0 of 0. */
    static final List<InclusionVector> VERIFY_TEST_INCLUSION = List.of(
            new InclusionVector(0, 1, List.of()),
            new InclusionVector(0, 8, hashes(
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")),
            new InclusionVector(5, 8, hashes(
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
            new InclusionVector(2, 3, hashes(
                    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125")),
            new InclusionVector(1, 5, hashes(
                    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")));

    /** {@code verify_test.go} {@code consistencyProofs} ({@code kSHA256Proofs} and the proof from 6 to 7). */
    static final List<ConsistencyVector> VERIFY_TEST_CONSISTENCY = List.of(
            new ConsistencyVector(1, 1, List.of()),
            new ConsistencyVector(1, 8, hashes(
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")),
            new ConsistencyVector(6, 8, hashes(
                    "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
            new ConsistencyVector(2, 5, hashes(
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")),
            new ConsistencyVector(6, 7, hashes(
                    "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")));

    /*
     * proof_test.go names the nodes of the tree of 7 leaves d0..d6 (and of 8, with leaf 7) so:
     *
     *                hash
     *               /    \
     *              k      l          l = hash(i, j): ephemeral in the tree of 7, not a node of NodeHashes
     *             / \    / \
     *            g   h  i   j
     *           / \ / \ / \
     *           a b c d e f
     */
    private static final byte[] A = node(0, 0);
    private static final byte[] B = node(0, 1);
    private static final byte[] C = node(0, 2);
    private static final byte[] D = node(0, 3);
    private static final byte[] E = node(0, 4);
    private static final byte[] F = node(0, 5);
    private static final byte[] J = node(0, 6);
    private static final byte[] LEAF_7 = node(0, 7);
    private static final byte[] G = node(1, 0);
    private static final byte[] H = node(1, 1);
    private static final byte[] I = node(1, 2);
    private static final byte[] K = node(2, 0);
    /** {@code id(2, 1)}: the node over leaves 4 to 7 of the 8-leaf tree. */
    private static final byte[] L8 = node(2, 1);
    /** {@code rehash(.., id(0, 6), id(1, 2))}: the ephemeral node over leaves 4 to 6 of the 7-leaf tree. */
    private static final byte[] L7 = Rfc6962.nodeHash(I, J);

    /** {@code proof_test.go} {@code TestInclusion}, the cases within 8 leaves (its two repeated cases once). */
    static final List<InclusionVector> PROOF_TEST_INCLUSION = List.of(
            new InclusionVector(0, 1, List.of()),
            new InclusionVector(0, 2, List.of(B)),
            new InclusionVector(1, 2, List.of(A)),
            new InclusionVector(1, 3, List.of(A, C)),
            new InclusionVector(0, 7, List.of(B, H, L7)),
            new InclusionVector(1, 7, List.of(A, H, L7)),
            new InclusionVector(2, 7, List.of(D, G, L7)),
            new InclusionVector(3, 7, List.of(C, G, L7)),
            new InclusionVector(4, 7, List.of(F, J, K)),
            new InclusionVector(5, 7, List.of(E, J, K)),
            new InclusionVector(6, 7, List.of(I, K)),
            new InclusionVector(2, 4, List.of(D, G)),
            new InclusionVector(3, 5, List.of(C, G, E)),
            new InclusionVector(3, 6, List.of(C, G, I)),
            new InclusionVector(4, 6, List.of(F, K)));

    /** {@code proof_test.go} {@code TestConsistency}, the cases within 8 leaves. */
    static final List<ConsistencyVector> PROOF_TEST_CONSISTENCY = List.of(
            new ConsistencyVector(1, 2, List.of(B)),
            new ConsistencyVector(1, 4, List.of(B, H)),
            new ConsistencyVector(1, 6, List.of(B, H, I)),
            new ConsistencyVector(2, 3, List.of(C)),
            new ConsistencyVector(2, 8, List.of(H, L8)),
            new ConsistencyVector(3, 7, List.of(C, D, G, L7)),
            new ConsistencyVector(4, 7, List.of(L7)),
            new ConsistencyVector(5, 7, List.of(E, F, J, K)),
            new ConsistencyVector(6, 7, List.of(I, J, K)),
            new ConsistencyVector(7, 8, List.of(J, LEAF_7, I, K)),
            new ConsistencyVector(1, 1, List.of()),
            new ConsistencyVector(2, 2, List.of()),
            new ConsistencyVector(3, 3, List.of()),
            new ConsistencyVector(4, 4, List.of()),
            new ConsistencyVector(5, 5, List.of()),
            new ConsistencyVector(7, 7, List.of()),
            new ConsistencyVector(8, 8, List.of()),
            new ConsistencyVector(2, 4, List.of(H)),
            new ConsistencyVector(3, 5, List.of(C, D, G, E)),
            new ConsistencyVector(3, 6, List.of(C, D, G, I)),
            new ConsistencyVector(4, 6, List.of(I)),
            new ConsistencyVector(1, 7, List.of(B, H, L7)));

    private PublishedVectors() {
    }

    /** The leaf data of {@link #LEAF_INPUTS}. */
    static List<byte[]> leafInputs() {
        return LEAF_INPUTS.stream().map(TestHashes::hex).toList();
    }

    /** The leaf hashes of the 8-leaf tree, computed from {@link #LEAF_INPUTS}. */
    static List<byte[]> leafHashes() {
        return leafInputs().stream().map(Rfc6962::leafHash).toList();
    }

    static byte[] root(long size) {
        return hex(ROOTS.get((int) size));
    }

    private static byte[] node(int level, int index) {
        return hex(NODE_HASHES.get(level).get(index));
    }

    private static List<byte[]> hashes(String... hex) {
        return Arrays.stream(hex).map(TestHashes::hex).toList();
    }
}
