package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Proves that nothing in .done/ and .error/ is overwritten, and that every file in .error/ says why it is there. */
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
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        root.addAppender(log);
        try {
            IntStream.range(0, BURST).forEach(i -> dropFile(burst + "-" + i + ".json", utf8(passingV1(burst + "-" + i))));
            await().atMost(PATIENCE.multipliedBy(2)).until(() -> IntStream.range(0, BURST)
                    .allMatch(i -> Files.exists(done(burst + "-" + i + ".json"))));
        } finally {
            root.detachAppender(log);
        }

        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE request_id LIKE ?",
                Long.class, burst + "-%")).isEqualTo(BURST);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.dead_letter WHERE source_ref LIKE ?",
                Long.class, burst + "-%")).isZero();
        assertThat(log.list).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                .filteredOn(event -> event.getLoggerName().startsWith("org.apache.camel")
                        || event.getLoggerName().startsWith("io.claimguard.intake")
                        || event.getFormattedMessage().contains(burst))
                .extracting(ILoggingEvent::getFormattedMessage)
                .isEmpty();
    }

    private static Path reason(String name) {
        return error(name + ".reason");
    }

    /** What the reason file of a dead_letter row holds: the row's reason, then where the input came from and when. */
    private static String reasonFile(Map<String, Object> deadLetter) {
        return deadLetter.get("reason_code") + ": " + deadLetter.get("reason") + "\n"
                + "source_ref: " + deadLetter.get("source_ref") + "\n"
                + "received_at: " + SQL.queryForObject("SELECT received_at FROM claimguard.dead_letter WHERE id = ?",
                        OffsetDateTime.class, deadLetter.get("id")) + "\n";
    }
}
