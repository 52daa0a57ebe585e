package io.claimguard.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Values from input as log lines hold them: one line, one field, bounded, and still readable. */
class LogValueTest {

    @Test
    @DisplayName("Scenario: A value from input is escaped in every log line")
    void everyControlCharacterIsEscaped() {
        for (char c = 0; c < 0x20; c++) {
            String escaped = LogValue.of("a" + c + "b");
            assertThat(escaped).as("U+%04X", (int) c).hasSize(c == '\t' || c == '\n' || c == '\r' ? 4 : 8)
                    .matches("a\\\\(t|n|r|u00[01][0-9a-f])b").doesNotContain(String.valueOf(c));
        }
        for (char c = 0x7f; c <= 0x9f; c++) {
            assertThat(LogValue.of("a" + c + "b")).as("U+%04X", (int) c).isEqualTo("a\\u%04xb".formatted((int) c));
        }
        assertThat(LogValue.of("a\nb")).isEqualTo("a\\nb");
        assertThat(LogValue.of("a\rb\tc")).isEqualTo("a\\rb\\tc");
        assertThat(LogValue.of("a\u2028b\u2029c")).as("separators, quoted too").isEqualTo("\"a\\u2028b\\u2029c\"");
        assertThat(LogValue.of("a\u202eb\u200bc\ufeff")).as("bidi override, zero width").isEqualTo("a\\u202eb\\u200bc\\ufeff");
        assertThat(LogValue.of("a\ud800b")).as("an unpaired surrogate").isEqualTo("a\\ud800b");
        assertThat(LogValue.of("a\\b")).isEqualTo("a\\\\b");
        assertThat(LogValue.of("a\\nb")).as("a backslash and an n are not a line break").isEqualTo("a\\\\nb");
    }

    @Test
    @DisplayName("A value that could pass for another field is quoted; other text is kept as it is")
    void aValueThatCouldPassForAnotherFieldIsQuoted() {
        assertThat(LogValue.of("line.json verdict=PASS")).isEqualTo("\"line.json verdict=PASS\"");
        assertThat(LogValue.of("a=b")).isEqualTo("\"a=b\"");
        assertThat(LogValue.of("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
        assertThat(LogValue.of("")).isEqualTo("\"\"");
        assertThat(LogValue.of("a\u00a0b")).as("a no-break space").isEqualTo("\"a\u00a0b\"");
        assertThat(LogValue.of(null)).isEqualTo("null");
        assertThat(LogValue.of("chat-2f91.req-0101")).isEqualTo("chat-2f91.req-0101");
        assertThat(LogValue.of("été-日本-\uD83D\uDE00.json")).as("kept as it is").isEqualTo("été-日本-\uD83D\uDE00.json");
        assertThat(LogValue.of(42L)).isEqualTo("42");
    }

    @Test
    @DisplayName("A long value is cut at a whole character, with its length")
    void aLongValueIsCutWithItsLength() {
        assertThat(LogValue.of("x".repeat(256))).isEqualTo("x".repeat(256));
        assertThat(LogValue.of("x".repeat(1000))).isEqualTo("x".repeat(256) + "...(1000 chars)");
        assertThat(LogValue.of("\n".repeat(1000))).isEqualTo("\\n".repeat(256) + "...(1000 chars)");
        String emojiAcrossTheCut = "x".repeat(255) + "\uD83D\uDE00" + "y";
        assertThat(LogValue.of(emojiAcrossTheCut)).as("a character is cut whole")
                .isEqualTo("x".repeat(255) + "...(258 chars)");
        assertThat(LogValue.text("y".repeat(2000))).isEqualTo("y".repeat(1024) + "...(2000 chars)");
        assertThat(LogValue.text("reason: \"a\nb\" = c")).as("a text is escaped, not quoted")
                .isEqualTo("reason: \\\"a\\nb\\\" = c");
    }

    @Test
    @DisplayName("No escaped value holds a character that ends or hides a line")
    void noEscapedValueHoldsACharacterThatEndsOrHidesALine() {
        StringBuilder every = new StringBuilder();
        for (char c = 0; c < 0x3000; c++) {
            every.append(c);
        }
        String escaped = escapeAll(every.toString());
        escaped.chars().forEach(c -> assertThat(Character.getType(c)).as("U+%04X", c)
                .isNotIn((int) Character.CONTROL, (int) Character.LINE_SEPARATOR, (int) Character.PARAGRAPH_SEPARATOR,
                        (int) Character.FORMAT, (int) Character.SURROGATE));
    }

    private static String escapeAll(String text) {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < text.length(); i += 200) {
            all.append(LogValue.of(text.substring(i, Math.min(text.length(), i + 200))));
        }
        return all.toString();
    }
}
