package io.claimguard.merkle;

import static io.claimguard.merkle.TestHashes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class Rfc6962Test {

    @Test
    @DisplayName("A leaf is hashed behind the byte 0x00, a node behind 0x01, and the empty tree is SHA-256 of nothing")
    void hashesAreTheRfcs() throws NoSuchAlgorithmException {
        byte[] data = "a seal's hash".getBytes(StandardCharsets.UTF_8);
        byte[] left = Rfc6962.leafHash(new byte[] {1});
        byte[] right = Rfc6962.leafHash(new byte[] {2});

        assertThat(Rfc6962.leafHash(data)).isEqualTo(sha256(new byte[] {0x00}, data));
        assertThat(Rfc6962.nodeHash(left, right)).isEqualTo(sha256(new byte[] {0x01}, left, right));
        assertThat(hex(Rfc6962.emptyRoot())).isEqualTo(PublishedVectors.EMPTY_ROOT);
        assertThat(Rfc6962.HASH_SIZE).isEqualTo(32);
    }

    @Test
    @DisplayName("A leaf of 64 bytes does not hash as the node of its two halves")
    void leafAndNodeHashesAreSeparated() {
        byte[] left = Rfc6962.leafHash(new byte[] {1});
        byte[] right = Rfc6962.leafHash(new byte[] {2});
        byte[] both = Arrays.copyOf(left, 64);
        System.arraycopy(right, 0, both, 32, 32);

        assertThat(Rfc6962.leafHash(both)).isNotEqualTo(Rfc6962.nodeHash(left, right));
    }

    @Test
    @DisplayName("A node's children must be 32-byte hashes, and nothing hashed may be null")
    void badArgumentsAreRefused() {
        byte[] hash = Rfc6962.leafHash(new byte[0]);

        assertThatThrownBy(() -> Rfc6962.nodeHash(new byte[31], hash)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("left child hash has 31 bytes, expected 32");
        assertThatThrownBy(() -> Rfc6962.nodeHash(hash, new byte[33])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("right child hash has 33 bytes, expected 32");
        assertThatThrownBy(() -> Rfc6962.nodeHash(null, hash)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("left child hash must not be null");
        assertThatThrownBy(() -> Rfc6962.leafHash(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf data must not be null");
    }

    @Test
    @DisplayName("Every hash returned is a fresh array: changing one changes no later result")
    void resultsAreFreshArrays() {
        byte[] first = Rfc6962.emptyRoot();
        first[0] ^= 1;

        assertThat(hex(Rfc6962.emptyRoot())).isEqualTo(PublishedVectors.EMPTY_ROOT);
    }

    @Test
    @DisplayName("Hashing from several threads at once gives the roots hashing from one does")
    void hashingIsThreadSafe() {
        List<byte[]> leaves = IntStream.range(0, 1000)
                .mapToObj(i -> Rfc6962.leafHash(new byte[] {(byte) i, (byte) (i >> 8)})).toList();
        List<String> sequential = IntStream.rangeClosed(0, 200)
                .mapToObj(n -> hex(MerkleTree.root(leaves.subList(0, n)))).toList();

        List<String> parallel = IntStream.rangeClosed(0, 200).parallel()
                .mapToObj(n -> hex(MerkleTree.root(leaves.subList(0, n)))).toList();

        assertThat(parallel).isEqualTo(sequential);
    }

    private static byte[] sha256(byte[]... parts) throws NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (byte[] part : parts) {
            digest.update(part);
        }
        return digest.digest();
    }
}
