package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class InboxNameTest {

    private static final String REASON = ".reason";

    @Test
    @DisplayName("Scenario: Only names ending in .json that are not hidden are inputs")
    void onlyVisibleJsonNamesAreInputs() {
        assertThat(InboxName.classify("x.json")).isEqualTo(InboxName.Kind.INPUT);
        assertThat(InboxName.classify("-rf a\\b\n.json")).isEqualTo(InboxName.Kind.INPUT);
        assertThat(InboxName.classify(".x.json")).isEqualTo(InboxName.Kind.HIDDEN);
        assertThat(InboxName.classify(".json")).isEqualTo(InboxName.Kind.HIDDEN);
        assertThat(InboxName.classify(".done")).isEqualTo(InboxName.Kind.HIDDEN);
        assertThat(InboxName.classify("x.JSON")).isEqualTo(InboxName.Kind.OTHER);
        assertThat(InboxName.classify("x.json.tmp")).isEqualTo(InboxName.Kind.OTHER);
        assertThat(List.of("x.json", ".x.json", ".json", "x.JSON", "x.json.tmp")).filteredOn(InboxName::isInput)
                .containsExactly("x.json");
    }

    @Test
    @DisplayName("Scenario: A name that cannot be kept is stored under a built name that fits, with the hash of the full name")
    void aNameThatCannotBeKeptGetsABuiltName() throws Exception {
        String longest = "x".repeat(250) + ".json";
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(longest.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        assertThat(InboxName.hash(longest)).isEqualTo(hash);

        // fits in .done/ as it is, but not numbered, nor with its reason file in .error/
        assertThat(stored(longest, 0, "")).isEqualTo(longest);
        String numbered = stored(longest, 1, "");
        assertThat(numbered).endsWith("." + hash + ".1.json").startsWith("xxxx");
        assertThat(bytes(numbered)).isLessThanOrEqualTo(255);
        String withReason = stored(longest, 0, REASON);
        assertThat(withReason).endsWith("." + hash + ".json");
        assertThat(bytes(withReason + REASON)).isEqualTo(255);
        assertThat(stored(longest, 2, REASON)).endsWith("." + hash + ".2.json");
        assertThat(bytes(stored(longest, 2, REASON) + REASON)).isLessThanOrEqualTo(255);

        // cut at a whole character: no half of a three-byte letter
        String letters = "\u2603".repeat(100) + ".json";
        String cut = stored(letters, 0, REASON);
        assertThat(cut).endsWith("." + InboxName.hash(letters) + ".json").doesNotContain("\ufffd");
        assertThat(bytes(cut + REASON)).isLessThanOrEqualTo(255).isGreaterThan(250);

        // a name the platform cannot write back (U+FFFD for a byte that is not UTF-8)
        String undecodable = "bad\ufffd.json";
        assertThat(InboxName.storedName(undecodable, 0, false, "", StandardCharsets.UTF_8))
                .isEqualTo("bad\ufffd." + InboxName.hash(undecodable) + ".json");
        assertThat(InboxName.storedName(undecodable, 1, false, REASON, StandardCharsets.UTF_8))
                .isEqualTo("bad\ufffd." + InboxName.hash(undecodable) + ".1.json");
        // where the file-name encoding cannot write a character at all, it is written _
        assertThat(InboxName.storedName("\u00e9t\u00e9.json", 0, false, "", StandardCharsets.US_ASCII))
                .isEqualTo("_t_." + InboxName.hash("\u00e9t\u00e9.json") + ".json");

        // a name that fits is kept, numbered as before
        assertThat(stored("x.json", 0, REASON)).isEqualTo("x.json");
        assertThat(stored("x.json", 2, REASON)).isEqualTo("x.2.json");
        assertThat(stored("a\\b\n.json", 1, "")).isEqualTo("a\\b\n.1.json");
    }

    @Test
    @DisplayName("Scenario: A reason file names the input on one line")
    void aReasonFileNamesTheInputOnOneLine() {
        assertThat(InboxName.oneLine("a\\b\nc\td\r\u001b\u007f.json")).isEqualTo("a\\\\b\\nc\\td\\r\\u001b\\u007f.json");
        assertThat(InboxName.oneLine("\u00e9t\u00e9 $(x) 'q' -rf.json")).isEqualTo("\u00e9t\u00e9 $(x) 'q' -rf.json");
        assertThat(InboxName.oneLine("line\nbreak.json")).doesNotContain("\n");
    }

    private static String stored(String name, int clash, String besideIt) {
        return InboxName.storedName(name, clash, true, besideIt, StandardCharsets.UTF_8);
    }

    private static int bytes(String name) {
        return name.getBytes(StandardCharsets.UTF_8).length;
    }
}
