package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.claimguard.domain.InboxName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Proves that nothing in .done/ and .error/ is overwritten, that every file in .error/ says why it is there, and that
 * every name a file system allows is taken and kept (or, where it cannot be, stored under a built name).
 */
class InboxNamesIT extends ServiceTestSupport {

    private static final int BURST = 300;

    @Test
    @DisplayName("Scenario: A file whose name is already in .done is kept beside it under a numbered name")
    void aFileWhoseNameIsAlreadyInDoneIsKeptUnderANumberedName() throws IOException {
        String name = uniqueId("same-name") + ".json";
        String first = uniqueId("first");
        String second = uniqueId("second");
        dropFile(name, utf8(passingV1(first)));
        await().atMost(PATIENCE).until(() -> Files.exists(done(name)));
        dropFile(name, utf8(gatekeeperFailedV2(second)));
        String numbered = name.replace(".json", ".1.json");
        await().atMost(PATIENCE).until(() -> Files.exists(done(numbered)));

        assertThat(Files.readAllBytes(done(name))).isEqualTo(utf8(passingV1(first)));
        assertThat(Files.readAllBytes(done(numbered))).isEqualTo(utf8(gatekeeperFailedV2(second)));
        assertThat(auditRows(first)).singleElement().extracting(row -> row.get("source_ref")).isEqualTo(name);
        assertThat(auditRows(second)).singleElement().extracting(row -> row.get("source_ref")).isEqualTo(name);
        assertThat(Files.exists(INBOX.resolve(name))).isFalse();
    }

    @Test
    @DisplayName("Scenario: A file whose name is already in .error is kept beside it under a numbered name, each with its reason")
    void aFileWhoseNameIsAlreadyInErrorIsKeptUnderANumberedNameWithItsReason() throws IOException {
        String name = uniqueId("same-bad-name") + ".json";
        byte[] truncated = utf8("{\"request_id\": \"r-1\", \"verifier_output\": {\"verdict\": \"PASS\"}");
        byte[] noRequestId = utf8("{\"verifier_output\": {}}");
        dropFile(name, truncated);
        await().atMost(PATIENCE).until(() -> Files.exists(reason(name)) && Files.exists(error(name)));
        dropFile(name, noRequestId);
        String numbered = name.replace(".json", ".1.json");
        await().atMost(PATIENCE).until(() -> Files.exists(reason(numbered)) && Files.exists(error(numbered)));

        List<Map<String, Object>> deadLetters = deadLetters(name);
        assertThat(deadLetters).hasSize(2);
        assertThat(Files.readAllBytes(error(name))).isEqualTo(truncated).isEqualTo(deadLetters.get(0).get("payload"));
        assertThat(Files.readAllBytes(error(numbered))).isEqualTo(noRequestId).isEqualTo(deadLetters.get(1).get("payload"));
        assertThat(Files.readString(reason(name))).isEqualTo(reasonFile(deadLetters.get(0))).startsWith(
                "not_json: input is not valid JSON: unexpected end of input, expected a closing '}' (line 1, column 61)\n");
        assertThat(Files.readString(reason(numbered))).isEqualTo(reasonFile(deadLetters.get(1))).startsWith("request_id.missing: ");
        try (Stream<Path> errorFolder = Files.list(error(name).getParent())) {
            assertThat(errorFolder.map(path -> path.getFileName().toString())).noneMatch(file -> file.endsWith(".tmp"));
        }
    }

    @Test
    @DisplayName("Scenario: A file set aside after failing has its reason beside it")
    void aFileSetAsideAfterFailingHasItsReasonBesideIt() throws Exception {
        refuseRequestIdsWithRefusedPrefix();
        String requestId = uniqueId(REFUSED_PREFIX + "reason-file");
        String name = requestId + ".json";
        dropFile(name, utf8(passingV1(requestId)));

        await().atMost(PATIENCE).until(() -> Files.exists(error(name)));
        Map<String, Object> deadLetter = awaitDeadLetter(name);
        assertThat(Files.readString(reason(name))).isEqualTo(reasonFile(deadLetter))
                .startsWith("processing_failed: processing failed after 1 attempt: ");
    }

    @Test
    @DisplayName("Scenario: A burst of files leaves no warning that a file is gone")
    void aBurstOfFilesLeavesNoWarningThatAFileIsGone() {
        String burst = uniqueId("burst");
        List<ILoggingEvent> warnings;
        try (LogCapture log = new LogCapture()) {
            IntStream.range(0, BURST).forEach(i -> dropFile(burst + "-" + i + ".json", utf8(passingV1(burst + "-" + i))));
            await().atMost(PATIENCE.multipliedBy(2)).until(() -> IntStream.range(0, BURST)
                    .allMatch(i -> Files.exists(done(burst + "-" + i + ".json"))));
            warnings = log.warnings();
        }

        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE request_id LIKE ?",
                Long.class, burst + "-%")).isEqualTo(BURST);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.dead_letter WHERE source_ref LIKE ?",
                Long.class, burst + "-%")).isZero();
        assertThat(warnings)
                .filteredOn(event -> event.getLoggerName().startsWith("org.apache.camel")
                        || event.getLoggerName().startsWith("io.claimguard.intake")
                        || event.getFormattedMessage().contains(burst))
                .extracting(ILoggingEvent::getFormattedMessage)
                .isEmpty();
    }

    @Test
    @DisplayName("Scenario: A rejected file with a name of 255 bytes is set aside under a built name with its reason")
    void aRejectedFileWithTheLongestNameIsSetAsideUnderABuiltName() throws IOException {
        String name = longestName("long-rejected");
        try (LogCapture log = new LogCapture()) {
            dropFile(name, utf8("[1]"));
            String stored = InboxName.storedName(name, 0, true, ".reason", StandardCharsets.UTF_8);
            await().atMost(PATIENCE).until(() -> Files.exists(reason(stored)) && Files.exists(error(stored)));

            assertThat(stored).isNotEqualTo(name).endsWith("." + InboxName.hash(name) + ".json");
            assertThat((stored + ".reason").getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(255);
            Map<String, Object> deadLetter = awaitDeadLetter(name);
            assertThat(deadLetter.get("reason_code")).isEqualTo("not_an_object");
            assertThat(Files.readString(reason(stored))).isEqualTo(reasonFile(deadLetter)).contains("source_ref: " + name + "\n");
            assertThat(Files.readAllBytes(error(stored))).isEqualTo(utf8("[1]"));
            assertThat(Files.exists(INBOX.resolve(name))).isFalse();
            assertThat(log.warnings("failed (attempt")).as("set aside at its first attempt").isEmpty();
        }
    }

    @Test
    @DisplayName("Scenario: A byte-identical copy of an accepted file with a name of 255 bytes is kept in .done under a built name")
    void aCopyOfAnAcceptedFileWithTheLongestNameIsKeptUnderABuiltName() throws IOException {
        String name = longestName("long-accepted");
        String requestId = uniqueId("long-accepted");
        byte[] envelope = utf8(passingV1(requestId));
        try (LogCapture log = new LogCapture()) {
            dropFile(name, envelope);
            await().atMost(PATIENCE).until(() -> Files.exists(done(name)));
            dropFile(name, envelope);
            String copy = InboxName.storedName(name, 1, true, "", StandardCharsets.UTF_8);
            await().atMost(PATIENCE).until(() -> Files.exists(done(copy)));

            assertThat(copy).endsWith("." + InboxName.hash(name) + ".1.json");
            assertThat(Files.readAllBytes(done(name))).isEqualTo(envelope);
            assertThat(Files.readAllBytes(done(copy))).isEqualTo(envelope);
            assertThat(auditRows(requestId)).singleElement().extracting(row -> row.get("source_ref")).isEqualTo(name);
            assertThat(resultsOnOutputQueue(requestId)).as("the first's result and the copy's, once").isEqualTo(2);
            assertThat(Files.exists(INBOX.resolve(name))).isFalse();
            assertThat(log.warnings("failed (attempt")).as("each moved at its first attempt").isEmpty();
        }
    }

    @Test
    @DisplayName("Scenario: Files whose names hold a backslash, a line break or a leading dash are audited under their own names")
    void namesWithBackslashesLineBreaksAndDashesAreKept() throws IOException {
        String id = uniqueId("odd");
        List<String> names = List.of("a\\b-" + id + ".json", "line\nbreak-" + id + ".json", "-n-" + id + ".json",
                "tab\tand\u001bescape-" + id + ".json");
        for (int i = 0; i < names.size(); i++) {
            dropFile(names.get(i), utf8(passingV1(id + "-" + i)));
        }
        String rejected = "bad\nname-" + id + ".json";
        dropFile(rejected, utf8("[1]"));

        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            await().atMost(PATIENCE).until(() -> Files.exists(done(name)));
            assertThat(auditRows(id + "-" + i)).as(name).singleElement().extracting(row -> row.get("source_ref")).isEqualTo(name);
            assertThat(Files.exists(INBOX.resolve(name))).as(name).isFalse();
        }
        await().atMost(PATIENCE).until(() -> Files.exists(reason(rejected)) && Files.exists(error(rejected)));
        Map<String, Object> deadLetter = awaitDeadLetter(rejected);
        assertThat(Files.readString(reason(rejected))).isEqualTo(reasonFile(deadLetter))
                .contains("\nsource_ref: bad\\nname-" + id + ".json\n");
        assertThat(Files.readString(reason(rejected)).lines()).hasSize(3);
    }

    @Test
    @DisplayName("Scenario: A file whose name is not valid UTF-8 is audited and kept under a built name")
    void aNameThatIsNotUtf8IsAuditedAndKeptUnderABuiltName() throws IOException {
        String requestId = uniqueId("not-utf8");
        byte[] name = ("bad-" + requestId + "-\u00ff.json").getBytes(StandardCharsets.ISO_8859_1);
        dropFileWithRawName(name, utf8(passingV1(requestId)));

        String asJavaReadsIt = "bad-" + requestId + "-\ufffd.json";
        Map<String, Object> row = awaitAuditRow(requestId);
        assertThat(row.get("source_ref")).isEqualTo(asJavaReadsIt);
        String stored = InboxName.storedName(asJavaReadsIt, 0, false, "", StandardCharsets.UTF_8);
        await().atMost(PATIENCE).until(() -> Files.exists(done(stored)));
        assertThat(stored).isEqualTo("bad-" + requestId + "-\ufffd." + InboxName.hash(asJavaReadsIt) + ".json");
        assertThat(Files.readAllBytes(done(stored))).isEqualTo(utf8(passingV1(requestId)));
        try (Stream<Path> inbox = Files.list(INBOX)) {
            assertThat(inbox.map(path -> path.toUri().getRawPath())).noneMatch(path -> path.contains(requestId));
        }
    }

    @Test
    @DisplayName("Scenario: The same name in NFC and in NFD is two files, each kept as it came")
    void nfcAndNfdNamesAreTwoFiles() throws IOException {
        String id = uniqueId("");
        String nfc = "\u00e9t\u00e9" + id + ".json";
        String nfd = "e\u0301te\u0301" + id + ".json";
        dropFile(nfc, utf8(passingV1("nfc" + id)));
        dropFile(nfd, utf8(passingV1("nfd" + id)));

        await().atMost(PATIENCE).until(() -> Files.exists(done(nfc)) && Files.exists(done(nfd)));
        assertThat(awaitAuditRow("nfc" + id).get("source_ref")).isEqualTo(nfc);
        assertThat(awaitAuditRow("nfd" + id).get("source_ref")).isEqualTo(nfd);
        assertThat(Files.readAllBytes(done(nfc))).isEqualTo(utf8(passingV1("nfc" + id)));
        assertThat(Files.readAllBytes(done(nfd))).isEqualTo(utf8(passingV1("nfd" + id)));
    }

    /** A name of exactly 255 bytes, the longest a Linux file system takes. */
    private static String longestName(String prefix) {
        String start = uniqueId(prefix) + "-";
        return start + "x".repeat(255 - start.length() - ".json".length()) + ".json";
    }

    private static Path reason(String name) {
        return error(name + ".reason");
    }

    /** What the reason file of a dead_letter row holds: the row's reason, then where the input came from and when. */
    private static String reasonFile(Map<String, Object> deadLetter) {
        return deadLetter.get("reason_code") + ": " + deadLetter.get("reason") + "\n"
                + "source_ref: " + InboxName.oneLine((String) deadLetter.get("source_ref")) + "\n"
                + "received_at: " + SQL.queryForObject("SELECT received_at FROM claimguard.dead_letter WHERE id = ?",
                        OffsetDateTime.class, deadLetter.get("id")) + "\n";
    }
}
