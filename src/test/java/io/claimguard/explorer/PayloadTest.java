package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PayloadTest {

    @Test
    @DisplayName("Scenario: Bytes that are not printable UTF-8 are shown as a hex dump")
    void textOrHex() {
        Payload text = Payload.of("{\"request_id\": \"é <b>\"}\n\ttab".getBytes(StandardCharsets.UTF_8));
        assertThat(text.text()).isTrue();
        assertThat(text.content()).isEqualTo("{\"request_id\": \"é <b>\"}\n\ttab");

        for (byte[] notText : new byte[][] {{(byte) 0xff, 'a'}, {'a', 0, 'b'}, {'a', 0x1b, '[', '3', '1', 'm'},
                "a\u202Eb".getBytes(StandardCharsets.UTF_8), {(byte) 0xc3}}) {
            Payload hex = Payload.of(notText);
            assertThat(hex.text()).as(Arrays.toString(notText)).isFalse();
            assertThat(hex.content()).startsWith("00000000 ");
        }
        Payload hex = Payload.of(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, '<', 's', '>', (byte) 0x80, 'x', 'y', 'z', '1',
            '2', '3', '4', '5', '6'});
        assertThat(hex.content()).isEqualTo("""
                00000000  ff fe 00 01 3c 73 3e 80 78 79 7a 31 32 33 34 35  |....<s>.xyz12345|
                00000010  36                                               |6|
                """);
        assertThat(hex.length()).isEqualTo(17);
    }

    @Test
    void longInputsAreCut() {
        byte[] big = new byte[Payload.SHOWN + 10];
        Arrays.fill(big, (byte) 'a');
        // a two-byte character across the cut does not make the text look binary
        big[Payload.SHOWN - 1] = (byte) 0xc3;
        big[Payload.SHOWN] = (byte) 0xa9;
        Payload cut = Payload.of(big);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.text()).isTrue();
        assertThat(cut.length()).isEqualTo(Payload.SHOWN + 10);
        assertThat(cut.content()).hasSize(Payload.SHOWN - 1);
    }
}
