package io.claimguard.merkle;

import static io.claimguard.merkle.TestHashes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The incremental root's edge cases and refusals; its roots are checked by the published vectors and properties. */
class CompactRangeTest {

    private static final List<byte[]> EIGHT = PublishedVectors.leafHashes();

    @Test
    @DisplayName("A new range is empty: size 0, the empty root, no hashes")
    void newRangeIsEmpty() {
        CompactRange range = new CompactRange();

        assertThat(range.size()).isZero();
        assertThat(range.root()).isEqualTo(Rfc6962.emptyRoot());
        assertThat(range.hashes()).isEmpty();
    }

    @Test
    @DisplayName("A range of one leaf has that leaf's hash as its root")
    void oneLeaf() {
        CompactRange range = new CompactRange();
        range.append(EIGHT.get(3));

        assertThat(range.size()).isEqualTo(1);
        assertThat(range.root()).isEqualTo(EIGHT.get(3));
    }

    @Test
    @DisplayName("A leaf hash that is not 32 bytes, or null, is refused by its leaf number and nothing is appended")
    void badLeafHashesAreRefused() {
        CompactRange range = new CompactRange();
        range.append(EIGHT.get(0));

        assertThatThrownBy(() -> range.append(new byte[16])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf hash 1 has 16 bytes, expected 32");
        assertThatThrownBy(() -> range.append(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("leaf hash 1 must not be null");
        assertThat(range.size()).isEqualTo(1);
        assertThat(range.root()).isEqualTo(EIGHT.get(0));
    }

    @Test
    @DisplayName("A range resumed from another's size and hashes goes on as the other would")
    void resumedRangeGoesOn() {
        CompactRange whole = new CompactRange();
        CompactRange resumed = null;
        for (int i = 0; i < EIGHT.size(); i++) {
            if (i == 5) {
                resumed = CompactRange.resume(whole.size(), whole.hashes());
            }
            whole.append(EIGHT.get(i));
            if (resumed != null) {
                resumed.append(EIGHT.get(i));
            }
        }

        assertThat(resumed.size()).isEqualTo(8);
        assertThat(hex(resumed.root())).isEqualTo(hex(whole.root())).isEqualTo(PublishedVectors.ROOTS.get(8));
    }

    @Test
    @DisplayName("Resuming needs one 32-byte hash per bit set in the size")
    void resumeChecksItsHashes() {
        List<byte[]> two = List.of(EIGHT.get(0), EIGHT.get(1));
        List<byte[]> withShort = List.of(EIGHT.get(0), new byte[3]);

        assertThatThrownBy(() -> CompactRange.resume(4, two)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a range of size 4 has 1 hashes (one per bit set in the size), not 2");
        assertThatThrownBy(() -> CompactRange.resume(3, withShort)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hash 1 has 3 bytes, expected 32");
        assertThatThrownBy(() -> CompactRange.resume(-1, List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("size -1 is negative");
        assertThatThrownBy(() -> CompactRange.resume(0, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hashes must not be null");
        assertThat(CompactRange.resume(0, List.of()).root()).isEqualTo(Rfc6962.emptyRoot());
    }

    @Test
    @DisplayName("The range keeps its own copies: changing what went in or came out changes nothing")
    void rangeKeepsCopies() {
        List<byte[]> leaves = new ArrayList<>();
        EIGHT.subList(0, 3).forEach(leaf -> leaves.add(leaf.clone()));
        CompactRange range = new CompactRange();
        leaves.forEach(range::append);
        byte[] root = range.root();

        leaves.get(2)[0] ^= 1;
        range.hashes().get(1)[0] ^= 1;
        range.root()[0] ^= 1;

        assertThat(range.root()).isEqualTo(root);
        assertThatThrownBy(() -> range.hashes().add(new byte[32])).isInstanceOf(UnsupportedOperationException.class);
    }
}
