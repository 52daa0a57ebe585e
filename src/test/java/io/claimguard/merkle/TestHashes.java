package io.claimguard.merkle;

import io.claimguard.domain.SeededCases.Gen;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Hex, bit flips and generated leaves, for the Merkle tests. */
final class TestHashes {

    private static final HexFormat HEX = HexFormat.of();

    private TestHashes() {
    }

    static byte[] hex(String hex) {
        return HEX.parseHex(hex);
    }

    static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    static List<String> hex(List<byte[]> hashes) {
        return hashes.stream().map(TestHashes::hex).toList();
    }

    /** A copy of {@code bytes} with bit {@code bit} (0 the lowest of byte 0) flipped. */
    static byte[] flipBit(byte[] bytes, int bit) {
        byte[] flipped = bytes.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        return flipped;
    }

    /** A copy of {@code hashes} with bit {@code bit} of element {@code element} flipped. */
    static List<byte[]> flipBit(List<byte[]> hashes, int element, int bit) {
        List<byte[]> flipped = new ArrayList<>(hashes);
        flipped.set(element, flipBit(hashes.get(element), bit));
        return flipped;
    }

    /** Leaf hashes of {@code size} seals, as the checkpoint hashes them: each seal hash is 32 random bytes. */
    static List<byte[]> sealLeaves(Gen gen, int size) {
        List<byte[]> leaves = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            leaves.add(Rfc6962.leafHash(randomHash(gen)));
        }
        return leaves;
    }

    static byte[] randomHash(Gen gen) {
        byte[] hash = new byte[Rfc6962.HASH_SIZE];
        for (int i = 0; i < hash.length; i++) {
            hash[i] = gen.anyByte();
        }
        return hash;
    }
}
