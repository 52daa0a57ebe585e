package io.claimguard.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.camel.component.file.GenericFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettledFileFilterTest {

    private static final Duration SETTLE = Duration.ofSeconds(1);
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    @TempDir
    Path inbox;

    @Test
    @DisplayName("Scenario: A complete file is read at its first sight, without waiting the settle time")
    void completeFileIsReadAtOnce() throws IOException {
        GenericFile<File> renamed = file("renamed.json", "{\"request_id\":\"r-1\",\"verifier_output\":{}}\n", NOW);

        assertThat(filter().accept(renamed)).isTrue();
    }

    @Test
    @DisplayName("Scenario: A file whose object is not closed yet waits until it has been unchanged for the settle time")
    void halfWrittenFileWaits() throws IOException {
        String half = "{\"request_id\":\"r-2\",\"verifier_output\":{\"verdict\":\"PASS\"},";

        assertThat(filter().accept(file("young.json", half, NOW.minusMillis(200)))).isFalse();
        assertThat(filter().accept(file("settled.json", half, NOW.minus(SETTLE)))).isTrue();
    }

    @Test
    @DisplayName("Scenario: Brackets inside strings, escapes and white space do not make a file complete")
    void stringsAndEscapesAreSkipped() {
        assertThat(SettledFileFilter.complete(bytes("{\"a\":\"}\"}"))).isTrue();
        assertThat(SettledFileFilter.complete(bytes("{\"a\":\"\\\"}"))).as("the quote is escaped: still in the string")
                .isFalse();
        assertThat(SettledFileFilter.complete(bytes("{\"a\":\"\\\\\"}"))).as("an escaped backslash ends the string")
                .isTrue();
        assertThat(SettledFileFilter.complete(bytes("  \n [1, {\"b\": []}] \r\n"))).isTrue();
        assertThat(SettledFileFilter.complete(bytes("{\"a\":{\"b\":1}"))).as("the outer object is open").isFalse();
        assertThat(SettledFileFilter.complete(bytes("{} x"))).as("more after the object").isFalse();
        assertThat(SettledFileFilter.complete(bytes(""))).isFalse();
        assertThat(SettledFileFilter.complete(bytes("   "))).isFalse();
        assertThat(SettledFileFilter.complete(bytes("42"))).as("a scalar cannot be known complete").isFalse();
        assertThat(SettledFileFilter.complete(bytes("}{"))).as("no byte can repair it").isTrue();
    }

    @Test
    @DisplayName("Scenario: A file larger than the input limit is read at once, to be rejected")
    void tooLargeFileIsReadAtOnce() throws IOException {
        GenericFile<File> large = file("large.json", "{\"x\":\"" + "y".repeat(200), NOW);

        assertThat(new SettledFileFilter(SETTLE, 100, Clock.fixed(NOW, ZoneOffset.UTC)).accept(large)).isTrue();
    }

    private SettledFileFilter filter() {
        return new SettledFileFilter(SETTLE, 1 << 20, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private GenericFile<File> file(String name, String content, Instant modified) throws IOException {
        Path path = Files.writeString(inbox.resolve(name), content);
        GenericFile<File> file = new GenericFile<>();
        file.setFile(path.toFile());
        file.setAbsoluteFilePath(path.toString());
        file.setFileName(name);
        file.setFileLength(Files.size(path));
        file.setLastModified(modified.toEpochMilli());
        return file;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
