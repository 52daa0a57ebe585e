package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StoredPayloadTest {

    private static final int CAP = 8 * 1024 * 1024;

    @Test
    @DisplayName("Scenario: A huge input is read once, keeping only the bytes its dead letter stores")
    void hugeInputIsStreamed() throws Exception {
        long size = 52_428_854L;
        StoredPayload stored = StoredPayload.read(new Generated(size), CAP);

        assertThat(stored.bytes()).hasSize(CAP);
        assertThat(stored.bytes()).isEqualTo(new Generated(CAP).readAllBytes());
        assertThat(stored.size()).isEqualTo(size);
        assertThat(stored.truncated()).isTrue();
        MessageDigest whole = MessageDigest.getInstance("SHA-256");
        try (InputStream again = new Generated(size)) {
            byte[] block = new byte[1 << 16];
            for (int read; (read = again.read(block)) != -1; ) {
                whole.update(block, 0, read);
            }
        }
        assertThat(stored.sha256()).isEqualTo(whole.digest());
    }

    @Test
    void withinTheCapAnInputIsKeptWhole() throws Exception {
        byte[] input = "{\"request_id\": \"r-1\"}".getBytes(StandardCharsets.UTF_8);
        for (StoredPayload stored : new StoredPayload[] {StoredPayload.of(input, input.length),
                StoredPayload.read(new ByteArrayInputStream(input), input.length)}) {
            assertThat(stored.bytes()).isEqualTo(input);
            assertThat(stored.size()).isEqualTo(input.length);
            assertThat(stored.truncated()).isFalse();
            assertThat(stored.sha256()).isEqualTo(MessageDigest.getInstance("SHA-256").digest(input));
        }
        StoredPayload empty = StoredPayload.read(new ByteArrayInputStream(new byte[0]), 1);
        assertThat(empty.bytes()).isEmpty();
        assertThat(empty.truncated()).isFalse();
    }

    @Test
    void overTheCapTheFirstBytesAreKeptWithTheWholeSizeAndHash() throws Exception {
        byte[] input = new Generated(1000).readAllBytes();
        StoredPayload held = StoredPayload.of(input, 100);
        StoredPayload streamed = StoredPayload.read(new ByteArrayInputStream(input), 100);
        for (StoredPayload stored : new StoredPayload[] {held, streamed}) {
            assertThat(stored.bytes()).isEqualTo(Arrays.copyOf(input, 100));
            assertThat(stored.size()).isEqualTo(1000);
            assertThat(stored.truncated()).isTrue();
            assertThat(stored.sha256()).isEqualTo(MessageDigest.getInstance("SHA-256").digest(input));
        }
        StoredPayload smaller = held.cappedAt(10);
        assertThat(smaller.bytes()).isEqualTo(Arrays.copyOf(input, 10));
        assertThat(smaller.size()).isEqualTo(1000);
        assertThat(smaller.sha256()).isEqualTo(held.sha256());
        assertThat(held.cappedAt(100)).isSameAs(held);
        assertThatThrownBy(() -> StoredPayload.of(input, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** {@code size} bytes that depend on their offset only, made as they are read and never held. */
    private static final class Generated extends InputStream {

        private final long size;
        private long offset;

        Generated(long size) {
            this.size = size;
        }

        @Override
        public int read() {
            return offset < size ? (int) (offset++ * 31 % 251) : -1;
        }

        @Override
        public int read(byte[] buffer, int from, int length) {
            if (offset >= size) {
                return -1;
            }
            int count = (int) Math.min(length, size - offset);
            for (int i = 0; i < count; i++) {
                buffer[from + i] = (byte) (offset++ * 31 % 251);
            }
            return count;
        }
    }
}
