package io.claimguard.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SettledFileTest {

    private static final Duration SETTLE = Duration.ofSeconds(1);
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    private final SettledFile settled = new SettledFile(SETTLE, 1 << 20);

    @Test
    @DisplayName("Scenario: A complete file is read at its first sight, without waiting the settle time")
    void completeFileIsReadAtOnce() {
        byte[] renamed = bytes("{\"request_id\":\"r-1\",\"verifier_output\":{}}\n");

        assertThat(settled.settled(renamed.length, NOW, NOW, renamed)).isTrue();
    }

    @Test
    @DisplayName("Scenario: A file whose object is not closed yet waits until it has been unchanged for the settle time")
    void halfWrittenFileWaits() {
        byte[] half = bytes("{\"request_id\":\"r-2\",\"verifier_output\":{\"verdict\":\"PASS\"},");

        assertThat(settled.settled(half.length, NOW.minusMillis(200), NOW, half)).isFalse();
        assertThat(settled.settled(half.length, NOW.minus(SETTLE), NOW, half)).isTrue();
    }

    @Test
    @DisplayName("Scenario: Brackets inside strings, escapes and white space do not make a file complete")
    void stringsAndEscapesAreSkipped() {
        assertThat(SettledFile.complete(bytes("{\"a\":\"}\"}"))).isTrue();
        assertThat(SettledFile.complete(bytes("{\"a\":\"\\\"}"))).as("the quote is escaped: still in the string")
                .isFalse();
        assertThat(SettledFile.complete(bytes("{\"a\":\"\\\\\"}"))).as("an escaped backslash ends the string")
                .isTrue();
        assertThat(SettledFile.complete(bytes("  \n [1, {\"b\": []}] \r\n"))).isTrue();
        assertThat(SettledFile.complete(bytes("{\"a\":{\"b\":1}"))).as("the outer object is open").isFalse();
        assertThat(SettledFile.complete(bytes("{} x"))).as("more after the object").isFalse();
        assertThat(SettledFile.complete(bytes(""))).isFalse();
        assertThat(SettledFile.complete(bytes("   "))).isFalse();
        assertThat(SettledFile.complete(bytes("42"))).as("a scalar cannot be known complete").isFalse();
        assertThat(SettledFile.complete(bytes("}{"))).as("no byte can repair it").isTrue();
    }

    @Test
    @DisplayName("Scenario: A file larger than the input limit is read at once, to be rejected")
    void tooLargeFileIsReadAtOnce() {
        byte[] large = bytes("{\"x\":\"" + "y".repeat(200));

        assertThat(new SettledFile(SETTLE, 100).settled(large.length, NOW, NOW, large)).isTrue();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
