package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.cli.ExitCodes;
import io.claimguard.pipeline.Redrive;
import jakarta.jms.BytesMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code claimguard redrive}: dead-lettered inputs processed again, and the rows that say where they came from. */
class RedriveIT extends ServiceTestSupport {

    private static final String ANY_DEAD_LETTER_HOLDING = "SELECT * FROM claimguard.dead_letter WHERE payload = ?";

    @Test
    @DisplayName("Scenario: A dead letter whose cause is fixed is audited, its row naming the dead letter")
    void fixedCauseIsAudited() throws Exception {
        String requestId = uniqueId("redrive-fixed");
        long deadLetterId = refusedThenAllowed(requestId);
        Map<String, Object> before = deadLetter(deadLetterId);

        CliRun run = CliRun.against("redrive", "--id", String.valueOf(deadLetterId));

        Map<String, Object> audit = auditRows(requestId).get(0);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines()).containsExactly("dead_letter " + deadLetterId + " -> audited as audit_id " + audit.get("id")
                + ": PASS (model PASS; no guard rule fired)");
        assertThat(audit).containsEntry("redrive_of", deadLetterId).containsEntry("source", "jms");
        assertThat(deadLetter(deadLetterId)).usingRecursiveComparison().isEqualTo(before);
    }

    @Test
    @DisplayName("Scenario: A re-driven audit row's link to its dead letter is sealed")
    void redriveLinkIsSealed() throws Exception {
        String requestId = uniqueId("redrive-sealed");
        long deadLetterId = refusedThenAllowed(requestId);
        assertThat(CliRun.against("redrive", "--id", String.valueOf(deadLetterId)).exitCode()).isEqualTo(ExitCodes.OK);
        long auditId = ((Number) auditRows(requestId).get(0).get("id")).longValue();
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        assertThat(verifyChain().exitCode()).as("sealed").isZero();

        SQL.update("UPDATE claimguard.verification_audit SET redrive_of = NULL WHERE id = ?", auditId);
        CliRun unlinked;
        try {
            unlinked = verifyChain();
        } finally {
            SQL.update("UPDATE claimguard.verification_audit SET redrive_of = ? WHERE id = ?", deadLetterId, auditId);
        }

        assertThat(unlinked.exitCode()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(unlinked.lines().get(0)).startsWith("audit_id=" + auditId + ": content altered");
        assertThat(verifyChain().exitCode()).as("restored").isZero();
    }

    @Test
    @DisplayName("Scenario: An input still invalid is dead-lettered again as a new row")
    void stillInvalidIsDeadLetteredAgain() throws Exception {
        String invalid = "{\"request_id\": \"" + uniqueId("redrive-invalid") + "\", ";
        long deadLetterId = deadLetterOf(invalid);
        Map<String, Object> before = deadLetter(deadLetterId);

        CliRun run = CliRun.against("redrive", "--id", String.valueOf(deadLetterId));

        List<Map<String, Object>> again = redrivenDeadLetters(deadLetterId);
        assertThat(again).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("reason_code", "not_json").containsEntry("reason", before.get("reason"))
                    .containsEntry("source", "jms");
            assertThat(row.get("source_ref")).isNotEqualTo(before.get("source_ref"));
            assertThat((byte[]) row.get("payload")).isEqualTo(utf8(invalid));
        });
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.lines()).containsExactly("dead_letter " + deadLetterId + " -> dead-lettered again as dead_letter "
                + again.get(0).get("id") + ": not_json: " + before.get("reason"));
        assertThat(deadLetter(deadLetterId)).usingRecursiveComparison().isEqualTo(before);

        // its newer row stands for it now
        CliRun repeated = CliRun.against("redrive", "--id", String.valueOf(deadLetterId));
        assertThat(repeated.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(repeated.lines()).containsExactly("dead_letter " + deadLetterId + " -> skipped: re-driven before and"
                + " dead-lettered again as dead_letter " + again.get(0).get("id") + " (re-drive that one); --again"
                + " re-drives it anyway");
        assertThat(redrivenDeadLetters(deadLetterId)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: Dead letters are selected by reason code")
    void selectedByReason() throws Exception {
        Instant since = Instant.now();
        long notJson = deadLetterOf("{\"request_id\": \"" + uniqueId("redrive-reason") + "\", ");
        long notAnObject = deadLetterOf("[\"" + uniqueId("redrive-other-reason") + "\"]");

        CliRun run = CliRun.against("redrive", "--reason", "not_json", "--since", since.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.lines()).singleElement().asString().startsWith("dead_letter " + notJson + " -> dead-lettered again");
        assertThat(redrivenDeadLetters(notJson)).hasSize(1);
        assertThat(redrivenDeadLetters(notAnObject)).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Dead letters are selected by the time they were received")
    void selectedByTimeRange() throws Exception {
        Instant since = Instant.now();
        long inRange = deadLetterOf("[\"" + uniqueId("redrive-in-range") + "\"]");
        Instant until = Instant.now();
        long later = deadLetterOf("[\"" + uniqueId("redrive-later") + "\"]");

        CliRun run = CliRun.against("redrive", "--since", since.toString(), "--until", until.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.lines()).singleElement().asString()
                .startsWith("dead_letter " + inRange + " -> dead-lettered again as dead_letter ")
                .contains(": not_an_object: ");
        assertThat(redrivenDeadLetters(inRange)).hasSize(1);
        assertThat(redrivenDeadLetters(later)).isEmpty();
    }

    @Test
    @DisplayName("Scenario: A dry run lists the selection and sends nothing")
    void dryRunSendsNothing() throws Exception {
        String invalid = "[\"" + uniqueId("redrive-dry") + "\"]";
        long deadLetterId = deadLetterOf(invalid);

        // no broker at all: a dry run never reaches for it
        CliRun run = CliRun.of("redrive", "--id", String.valueOf(deadLetterId), "--dry-run",
                "--broker", "tcp://127.0.0.1:1", "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(),
                "--db-password", DATABASE.password());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines()).singleElement().asString()
                .startsWith("dead_letter " + deadLetterId + " -> would be re-driven: not_an_object, received 20")
                .endsWith("Z, " + utf8(invalid).length + " bytes");
        assertThat(redrivenDeadLetters(deadLetterId)).isEmpty();
    }

    @Test
    @DisplayName("Scenario: A dead letter that keeps only the first bytes of its input is not re-driven from its row")
    void truncatedDeadLetterIsNotRedriven() {
        byte[] huge = new byte[MAX_STORED_BYTES + 1024];
        Arrays.fill(huge, (byte) 'h');
        byte[] tag = utf8(uniqueId("redrive-huge"));
        System.arraycopy(tag, 0, huge, 0, tag.length);
        String testCase = uniqueId("redrive-huge");
        sendBytes(huge, testCase);
        assertThat(receiveDeadLetter(testCase)).as("the whole input on the dead-letter queue").isNotNull();
        String query = "SELECT id, source_ref FROM claimguard.dead_letter WHERE payload_sha256 = sha256(?)";
        await().atMost(PATIENCE).until(() -> !SQL.queryForList(query, (Object) huge).isEmpty());
        Map<String, Object> row = SQL.queryForList(query, (Object) huge).get(0);
        long deadLetterId = ((Number) row.get("id")).longValue();
        String expected = "dead_letter " + deadLetterId + " -> %s: its row keeps only the first bytes of its " + huge.length
                + " (payload_truncated); the whole input is in the dead-letter queue (JMS message id " + row.get("source_ref")
                + "): send it from there once its cause is fixed";

        CliRun dry = CliRun.against("redrive", "--id", String.valueOf(deadLetterId), "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isEqualTo(ExitCodes.OK);
        assertThat(dry.lines()).containsExactly(expected.formatted("would not be re-driven"));
        CliRun run = CliRun.against("redrive", "--id", String.valueOf(deadLetterId));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.lines()).containsExactly(expected.formatted("not re-driven"));
        assertThat(redrivenDeadLetters(deadLetterId)).isEmpty();
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE redrive_of = ?",
                Long.class, deadLetterId)).isZero();
    }

    @Test
    @DisplayName("Scenario: The dead letter of an inbox entry that was not a regular file is not re-driven")
    void theDeadLetterOfAnEntryThatWasNotARegularFileIsNotRedriven() throws Exception {
        String fifo = uniqueId("redrive-fifo") + ".json";
        java.nio.file.Files.createDirectories(INBOX);
        Process mkfifo = new ProcessBuilder("mkfifo", INBOX.resolve(fifo).toString()).redirectErrorStream(true).start();
        assertThat(mkfifo.waitFor()).isZero();
        long deadLetterId = ((Number) awaitDeadLetter(fifo).get("id")).longValue();

        CliRun run = CliRun.against("redrive", "--id", String.valueOf(deadLetterId));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.lines()).singleElement().asString().startsWith("dead_letter " + deadLetterId + " -> not re-driven: it"
                + " was an inbox entry that is not a regular file (file_type.unsupported): nothing was read, so there is"
                + " nothing to send; the entry is in the inbox's .error/ folder (" + fifo);
        assertThat(redrivenDeadLetters(deadLetterId)).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Nothing selected is said, and is no error")
    void nothingSelected() {
        CliRun run = CliRun.against("redrive", "--id", "987654321987");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines()).containsExactly("nothing to re-drive: no dead letter matches the selection");
    }

    @Test
    @DisplayName("Scenario: A dead letter re-driven and audited before is skipped unless --again")
    void auditedRedriveIsSkippedUnlessAgain() throws Exception {
        String requestId = uniqueId("redrive-twice");
        long deadLetterId = refusedThenAllowed(requestId);
        assertThat(CliRun.against("redrive", "--id", String.valueOf(deadLetterId)).exitCode()).isEqualTo(ExitCodes.OK);
        Object auditId = auditRows(requestId).get(0).get("id");

        CliRun skipped = CliRun.against("redrive", "--id", String.valueOf(deadLetterId));
        assertThat(skipped.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(skipped.lines()).containsExactly("dead_letter " + deadLetterId + " -> skipped: re-driven before and"
                + " audited as audit_id " + auditId + "; --again re-drives it anyway");

        CliRun again = CliRun.against("redrive", "--id", String.valueOf(deadLetterId), "--again");
        assertThat(again.exitCode()).as(again.err()).isEqualTo(ExitCodes.OK);
        assertThat(again.lines()).singleElement().asString()
                .startsWith("dead_letter " + deadLetterId + " -> duplicate of audit_id " + auditId + " ");
        assertThat(auditRows(requestId)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: A re-drive without a selector is a usage error")
    void selectorRequired() {
        CliRun none = CliRun.against("redrive");
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("at least one of --id, --reason, --since, --until");

        CliRun badInstant = CliRun.against("redrive", "--since", "yesterday");
        assertThat(badInstant.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badInstant.err()).contains("--since").contains("yesterday");
    }

    @Test
    @DisplayName("Scenario: A re-drive property that names no dead letter changes nothing else")
    void bogusRedriveProperty() {
        String notANumber = uniqueId("redrive-bogus-text");
        String unknownId = uniqueId("redrive-bogus-id");
        String invalid = "{\"request_id\": \"" + uniqueId("redrive-bogus-rejected") + "\", ";
        send(session -> redriveMessage(session, utf8(passingV1(notANumber)), "dead letter 7"), notANumber);
        send(session -> redriveMessage(session, utf8(passingV1(unknownId)), 987654321987L), unknownId);
        send(session -> redriveMessage(session, utf8(invalid), 987654321987L), notANumber + "-rejected");

        assertThat(awaitAuditRow(notANumber)).containsEntry("redrive_of", null);
        assertThat(awaitAuditRow(unknownId)).containsEntry("redrive_of", null);
        await().atMost(PATIENCE).until(() -> !SQL.queryForList(ANY_DEAD_LETTER_HOLDING, (Object) utf8(invalid)).isEmpty());
        assertThat(SQL.queryForList(ANY_DEAD_LETTER_HOLDING, (Object) utf8(invalid))).singleElement().satisfies(row ->
                assertThat(row).containsEntry("reason_code", "not_json").containsEntry("redrive_of", null));
    }

    // ---- helpers

    private static BytesMessage redriveMessage(jakarta.jms.Session session, byte[] payload, Object redriveOf) {
        try {
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(payload);
            message.setObjectProperty(Redrive.PROPERTY, redriveOf);
            return message;
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private static CliRun verifyChain() {
        return CliRun.of("verify-chain", "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(),
                "--db-password", DATABASE.password());
    }

    /** Sends the text and returns the id of the dead letter it became. */
    private long deadLetterOf(String text) {
        sendText(text, uniqueId("redrive"));
        await().atMost(PATIENCE).until(() -> !deadLettersHolding(utf8(text)).isEmpty());
        return ((Number) deadLettersHolding(utf8(text)).get(0).get("id")).longValue();
    }

    /**
     * An input the database refuses (processing_failed) while a CHECK constraint of this test's own stands in for a
     * cause, dropped once the input is dead-lettered: the cause is fixed.
     */
    private long refusedThenAllowed(String requestId) throws SQLException {
        String constraint = "test_redrive_refuses_" + requestId.replaceAll("[^A-Za-z0-9]", "_");
        execute("ALTER TABLE claimguard.verification_audit ADD CONSTRAINT " + constraint
                + " CHECK (request_id <> '" + requestId + "')");
        try {
            String envelope = passingV1(requestId);
            long deadLetterId = deadLetterOf(envelope);
            assertThat(deadLetter(deadLetterId)).containsEntry("reason_code", "processing_failed");
            return deadLetterId;
        } finally {
            execute("ALTER TABLE claimguard.verification_audit DROP CONSTRAINT " + constraint);
        }
    }

    private static void execute(String ddl) throws SQLException {
        try (Connection connection = DATABASE.connect(); Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        }
    }

    private static List<Map<String, Object>> deadLettersHolding(byte[] payload) {
        return SQL.queryForList("SELECT * FROM claimguard.dead_letter WHERE payload = ? AND redrive_of IS NULL ORDER BY id",
                (Object) payload);
    }

    private static Map<String, Object> deadLetter(long id) {
        return SQL.queryForMap("SELECT * FROM claimguard.dead_letter WHERE id = ?", id);
    }

    private static List<Map<String, Object>> redrivenDeadLetters(long id) {
        return SQL.queryForList("SELECT * FROM claimguard.dead_letter WHERE redrive_of = ? ORDER BY id", id);
    }
}
