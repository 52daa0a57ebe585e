package io.claimguard.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.cli.ClaimGuardCli;
import io.claimguard.seal.AuditSealer;
import io.claimguard.testkit.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code verify-chain --checkpoints --public-key}, {@code prove} and {@code verify-receipt} against a database of each
 * test's own, with rows sealed and checkpoints signed round by round, then tampered with as an owner or superuser
 * could: every tampering is named, with exit status 1, and an intact database with its checkpoints verifies with exit
 * status 0; receipts hold with the public key alone, and any change to one is named.
 */
class TamperEvidenceIT {

    private static final Path INTEGRITY_PAGE = Path.of("docs/integrity.md");
    private static final Instant NOON = Instant.parse("2026-12-04T12:00:00.250Z");

    @TempDir
    Path work;

    private TestDatabase database;
    private HikariDataSource writer;
    private AuditSealer sealer;
    private CheckpointWriter checkpoints;
    private Path checkpointDirectory;
    private Path keyFile;
    private final List<Long> auditIds = new ArrayList<>();

    private record Run(int exitCode, List<String> lines, String errors) {
    }

    @BeforeEach
    void freshDatabaseAndKey() throws IOException {
        database = TestDatabase.createSeparate().migrated();
        writer = database.poolActingAs("claimguard_writer", 2);
        sealer = new AuditSealer(writer, 500, Duration.ofMinutes(10));
        keyFile = work.resolve("checkpoint.key");
        assertThat(cli("keygen", "--out", keyFile.toString()).exitCode()).isZero();
        checkpointDirectory = work.resolve("checkpoints");
        checkpoints = writerWith(Ed25519Keys.readSigningKey(keyFile));
    }

    @AfterEach
    void dropDatabase() {
        writer.close();
        database.drop();
    }

    @Test
    @DisplayName("Scenario: An intact chain with its checkpoints verifies")
    void intactChainWithItsCheckpointsVerifies() throws Exception {
        sealedRows(5);
        assertThat(checkpoints.checkpointIfMoved()).isPresent();
        assertThat(checkpoints.checkpointIfMoved()).as("the head has not moved").isEmpty();
        sealedRows(4);
        SignedCheckpoint second = checkpoints.checkpointIfMoved().orElseThrow();
        sealedRows(3);

        Run run = verify();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).contains("audit chain intact: 12 rows sealed, 0 not yet sealed",
                "checkpoints intact: 2 signed checkpoints verified against the chain, the newest "
                        + second.checkpoint().describe());
        assertThat(second.checkpoint().treeSize()).isEqualTo(9);
        assertThat(second.checkpoint().headSeq()).isEqualTo(sealSeqOf(auditIds.get(8)));
        assertThat(second.checkpoint().origin()).isEqualTo("claimguard/test-origin");
    }

    @Test
    @DisplayName("Scenario: verify-chain verifies the seals after the checkpoint before the newest, and --full the whole chain")
    void incrementalVerificationStartsFromTheCheckpointBeforeTheNewest() throws Exception {
        sealedRows(5);
        Checkpoint older = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        sealedRows(4);
        Checkpoint newest = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        sealedRows(3);

        Run intact = verifyIncrementally();
        assertThat(intact.exitCode()).as(intact.toString()).isZero();
        assertThat(intact.lines()).contains(
                "audit chain intact after seal seq %d: 7 seals verified after it, 0 rows not yet sealed"
                        .formatted(older.headSeq()),
                "checkpoints intact: 2 signed checkpoints verified against the chain, the newest " + newest.describe());
        assertThat(lastRecorded()).as("recorded for status")
                .isEqualTo("incremental from %d through %d, checkpoint size 5, intact"
                        .formatted(older.headSeq(), sealSeqOf(auditIds.get(11))));

        // a row the older checkpoint vouches for: only the full verification recomputes it
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = " + auditIds.get(1));
        assertThat(verifyIncrementally().exitCode()).isZero();
        Run full = verify();
        assertThat(full.exitCode()).isEqualTo(1);
        assertThat(full.lines().get(0)).startsWith("audit_id=" + auditIds.get(1) + ": content altered");
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'REJECT' WHERE id = " + auditIds.get(1));

        // a row after it, and the newest checkpoint's head re-hashed: both named
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = " + auditIds.get(6));
        Run changed = verifyIncrementally();
        assertThat(changed.exitCode()).isEqualTo(1);
        assertThat(changed.lines().get(0)).startsWith("audit_id=" + auditIds.get(6) + ": content altered");
        assertThat(lastRecorded()).startsWith("incremental from %d through %d, checkpoint size 5, broken"
                .formatted(older.headSeq(), sealSeqOf(auditIds.get(5))));
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'REJECT' WHERE id = " + auditIds.get(6));

        asOwner("UPDATE claimguard.audit_seal SET hash = sha256(hash) WHERE seq = " + newest.headSeq());
        Run rehashed = verifyIncrementally();
        assertThat(rehashed.exitCode()).isEqualTo(1);
        assertThat(rehashed.lines()).anyMatch(line -> line.contains("seal seq %d has another hash than the one signed"
                .formatted(newest.headSeq())));
    }

    /** The newest row of claimguard.chain_verification, in short. */
    private String lastRecorded() throws SQLException {
        try (Connection connection = database.connect(); Statement query = connection.createStatement();
                ResultSet rs = query.executeQuery("""
                        SELECT mode || ' from ' || from_seq || ' through ' || through_seq || ', checkpoint size '
                               || checkpoint_size || ', ' || CASE WHEN intact THEN 'intact' ELSE 'broken' END
                        FROM claimguard.chain_verification ORDER BY id DESC LIMIT 1""")) {
            assertThat(rs.next()).as("a recorded verification").isTrue();
            return rs.getString(1);
        }
    }

    @Test
    @DisplayName("Scenario: A changed row is named by the chain, and the checkpoints still hold")
    void changedRowIsNamed() throws Exception {
        sealedRows(6);
        checkpoints.checkpointIfMoved().orElseThrow();
        long changed = auditIds.get(2);
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = " + changed);

        Run run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines().get(0)).startsWith("audit_id=" + changed + ": content altered");
        assertThat(run.lines()).anyMatch(line -> line.startsWith("checkpoints intact: 1 signed checkpoints"));
    }

    @Test
    @DisplayName("Scenario: A row removed in the middle is named by the chain and by the checkpoint after it")
    void rowRemovedInTheMiddleIsNamed() throws Exception {
        sealedRows(4);
        checkpoints.checkpointIfMoved().orElseThrow();
        sealedRows(4);
        Checkpoint after = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        long removedSeq = sealSeqOf(auditIds.get(5));
        long lastMatchingHead = sealSeqOf(auditIds.get(3));
        removeWithSeal(auditIds.get(5));

        Run run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines().get(0)).isEqualTo("seal seq %d: previous_hash does not match seal %d"
                .formatted(removedSeq + 1, removedSeq - 1));
        assertThat(run.lines()).contains("checkpoints broken: 1 of 2 checkpoint entries verify against the chain, the rest do not:");
        assertThat(run.lines()).anyMatch(line -> line.endsWith(("(%s): the chain holds fewer than the 8 seals signed up to"
                + " seal seq %d: seals at or before seal seq %d were removed, after seal seq %d, the head of the last"
                + " checkpoint that still matches").formatted(after.describe(), after.headSeq(), after.headSeq(),
                lastMatchingHead)));

        // sealing goes on after the gap: the checkpoint's size is reached at a later seal, which is named
        sealedRows(2);
        Run later = verify();
        assertThat(later.lines()).anyMatch(line -> line.endsWith(("(%s): the chain's seal number 8 is seal seq %d now, not %d:"
                + " seals were removed or inserted at or before seal seq %d, after seal seq %d, the head of the last"
                + " checkpoint that still matches").formatted(after.describe(), after.headSeq() + 1, after.headSeq(),
                after.headSeq(), lastMatchingHead)));
    }

    @Test
    @DisplayName("Scenario: The last rows removed together with their seals are detected by the checkpoint beyond the chain's end")
    void lastRowsRemovedWithTheirSealsAreDetected() throws Exception {
        sealedRows(6);
        Checkpoint checkpoint = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        long newHead = sealSeqOf(auditIds.get(2));
        for (long removed : auditIds.subList(3, 6)) {
            removeWithSeal(removed);
        }

        Run run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines().get(0)).as("the chain alone cannot tell").isEqualTo("audit chain intact: 3 rows sealed, 0 not yet sealed");
        assertThat(run.lines()).anyMatch(line -> line.matches(
                "checkpoint .*checkpoints-2026-12-04\\.log line 1 \\(" + java.util.regex.Pattern.quote(checkpoint.describe())
                        + "\\): the chain holds only 3 seals now, ending at seal seq " + newHead + ": seal seq "
                        + checkpoint.headSeq() + " and the seals before it back to the chain's end were removed"));
    }

    @Test
    @DisplayName("Scenario: A chain rewritten from a point and re-hashed is detected by the checkpoint that covers the point")
    void chainRewrittenAndRehashedIsDetected() throws Exception {
        sealedRows(4);
        Checkpoint before = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        sealedRows(4);
        Checkpoint covering = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        // the owner changes row 6 and re-seals it and every row after it, with the same seq numbers: a chain that
        // verifies on its own
        long firstRewritten = sealSeqOf(auditIds.get(5));
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = " + auditIds.get(5),
                "DELETE FROM claimguard.audit_seal WHERE seq >= " + firstRewritten,
                // and the seals' keys (V14), which would refuse a second seal of the same seq
                "DELETE FROM claimguard.audit_seal_key WHERE seq >= " + firstRewritten,
                "SELECT setval('claimguard.audit_seal_seq_seq', " + (firstRewritten - 1) + ")");
        assertThat(sealer.sealAllRows()).isEqualTo(3);
        assertThat(sealSeqOf(auditIds.get(7))).isEqualTo(covering.headSeq());

        Run run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines().get(0)).as("the chain alone cannot tell").isEqualTo("audit chain intact: 8 rows sealed, 0 not yet sealed");
        assertThat(run.lines()).anyMatch(line -> line.endsWith(("(%s): seal seq %d has another hash than the one signed: the"
                + " chain was rewritten and re-hashed at or before seal seq %d, after seal seq %d, the head of the last"
                + " checkpoint that still matches").formatted(covering.describe(), covering.headSeq(), covering.headSeq(),
                before.headSeq())));
    }

    @Test
    @DisplayName("Scenario: An edited checkpoint line is named, whatever was edited")
    void editedCheckpointIsNamed() throws Exception {
        sealedRows(3);
        SignedCheckpoint signed = checkpoints.checkpointIfMoved().orElseThrow();
        Path file = onlyLogFile();
        String line = signed.line();
        String edited = line.replace(" " + signed.checkpoint().headSeq() + " ", " " + (signed.checkpoint().headSeq() + 1) + " ");
        assertThat(edited).isNotEqualTo(line);
        Files.writeString(file, edited + "\n" + "this is no checkpoint\n");

        Run run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).contains(
                "checkpoint " + file + " line 1: the signature does not verify: the line was altered after signing, or forged",
                "checkpoint " + file + " line 2: not a checkpoint line (expected 8 space-separated fields starting with v1)");
    }

    @Test
    @DisplayName("Scenario: A checkpoint signed with another key, or with a forged signature, is named")
    void forgedCheckpointIsNamed() throws Exception {
        sealedRows(3);
        SignedCheckpoint genuine = checkpoints.checkpointIfMoved().orElseThrow();
        Path attackerKey = work.resolve("attacker.key");
        assertThat(cli("keygen", "--out", attackerKey.toString()).exitCode()).isZero();
        Ed25519Keys.SigningKey attacker = Ed25519Keys.readSigningKey(attackerKey);
        SignedCheckpoint otherKey = SignedCheckpoint.sign(genuine.checkpoint(), attacker.privateKey(), attacker.publicKey());
        SignedCheckpoint forged = new SignedCheckpoint(genuine.checkpoint(), genuine.keyId(), new byte[64]);
        Path file = onlyLogFile();
        Files.writeString(file, otherKey.line() + "\n" + forged.line() + "\n", StandardOpenOption.APPEND);

        Run run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.lines()).contains("checkpoints broken: 1 of 3 checkpoint entries verify against the chain, the rest do not:");
        assertThat(run.lines()).anyMatch(l -> l.startsWith("checkpoint " + file + " line 2: signed by another key (key id "));
        assertThat(run.lines()).contains("checkpoint " + file
                + " line 3: the signature does not verify: the line was altered after signing, or forged");
    }

    @Test
    @DisplayName("Scenario: An empty or missing checkpoint log does not pass")
    void missingCheckpointsDoNotPass() throws Exception {
        sealedRows(2);
        Files.createDirectories(checkpointDirectory);

        Run empty = verify();
        assertThat(empty.exitCode()).isEqualTo(1);
        assertThat(empty.lines()).contains("no checkpoint found: the checkpoint log is empty");

        Run missing = cli(verifyArguments(work.resolve("nowhere")));
        assertThat(missing.exitCode()).isEqualTo(3);
        assertThat(missing.errors()).contains("cannot read the checkpoints in " + work.resolve("nowhere"));

        Run withoutKey = cli("verify-chain", "--db-url", database.jdbcUrl(), "--checkpoints", checkpointDirectory.toString());
        assertThat(withoutKey.exitCode()).isEqualTo(2);
        assertThat(withoutKey.errors()).contains("--checkpoints and --public-key go together");
    }

    @Test
    @DisplayName("Scenario: No checkpoint is signed for a head whose link is broken")
    void noCheckpointForABrokenHead() throws Exception {
        sealedRows(3);
        asOwner("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = " + auditIds.get(2));

        assertThatThrownBy(checkpoints::checkpointIfMoved).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the chain's head link is broken, no checkpoint signed: audit_id=" + auditIds.get(2));
        assertThat(checkpointDirectory).isEmptyDirectory();
    }

    @Test
    @DisplayName("Scenario: A writer started again reads the chain once and signs only a head that moved")
    void restartedWriterSignsOnlyAMovedHead() throws Exception {
        sealedRows(3);
        checkpoints.checkpointIfMoved().orElseThrow();

        CheckpointWriter restarted = writerWith(Ed25519Keys.readSigningKey(keyFile));
        assertThat(restarted.checkpointIfMoved()).as("same head as the newest checkpoint").isEmpty();
        sealedRows(2);
        Checkpoint moved = restarted.checkpointIfMoved().orElseThrow().checkpoint();

        assertThat(moved.treeSize()).isEqualTo(5);
        assertThat(verify().exitCode()).isZero();
    }

    @Test
    @DisplayName("Scenario: A writer started over a chain that no longer contains the newest checkpoint says so at ERROR")
    void restartedWriterReportsARewrittenChain() throws Exception {
        sealedRows(4);
        Checkpoint newest = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        removeWithSeal(auditIds.get(3));
        Logger logger = (Logger) LoggerFactory.getLogger(CheckpointWriter.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            writerWith(Ed25519Keys.readSigningKey(keyFile)).checkpointIfMoved();
        } finally {
            logger.detachAppender(lines);
        }

        assertThat(lines.list).filteredOn(line -> line.getLevel() == Level.ERROR)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("the audit chain holds 3 seals, fewer than the newest checkpoint in " + checkpointDirectory
                        + " (" + newest.describe() + "): seals were removed; run claimguard verify-chain with --checkpoints");
    }

    @Test
    @DisplayName("Scenario: An audit row's receipt holds with the public key alone")
    void receiptHoldsWithThePublicKeyAlone() throws Exception {
        sealedRows(7);
        Checkpoint checkpoint = checkpoints.checkpointIfMoved().orElseThrow().checkpoint();
        long auditId = auditIds.get(3);
        long seq = sealSeqOf(auditId);
        Path receipt = work.resolve("receipt.json");

        Run proved = cli("prove", "--audit-id", Long.toString(auditId), "--checkpoints", checkpointDirectory.toString(),
                "--out", receipt.toString(), "--db-url", database.jdbcUrl(), "--db-user", database.username(),
                "--db-password", database.password());
        assertThat(proved.exitCode()).as(proved.toString()).isZero();
        database.drop();

        Run verified = cli("verify-receipt", receipt.toString(), "--public-key", keyFile + ".pub");
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
        assertThat(verified.lines()).containsExactly(("receipt holds: audit_id %d (request id %s, seal seq %d) is seal"
                + " number 4 of the 7 in the chain signed by claimguard/test-origin at %s (head: seal seq %d)")
                .formatted(auditId, receiptField(receipt, "request_id"), seq, checkpoint.time(), checkpoint.headSeq()));
    }

    @Test
    @DisplayName("Scenario: A receipt changed in any part does not hold, and says why")
    void changedReceiptDoesNotHold() throws Exception {
        sealedRows(6);
        checkpoints.checkpointIfMoved().orElseThrow();
        Path receipt = work.resolve("receipt.json");
        assertThat(prove("--audit-id", Long.toString(auditIds.get(2)), "--out", receipt.toString()).exitCode()).isZero();
        String original = Files.readString(receipt);
        String sealHash = receiptField(receipt, "seal_hash");
        String proofElement = Receipts.fromJson(original) instanceof Receipt.Inclusion inclusion
                ? inclusion.inclusionProof().get(0) : null;
        String line = receiptField(receipt, "checkpoint");
        Path attackerKey = work.resolve("attacker.key");
        assertThat(cli("keygen", "--out", attackerKey.toString()).exitCode()).isZero();

        assertThat(verifyChanged(receipt, original.replace("\"leaf_index\" : 2", "\"leaf_index\" : 3")))
                .startsWith("receipt does not hold: the inclusion proof does not lead from seal_hash to the signed root");
        assertThat(verifyChanged(receipt, original.replace(sealHash, otherFirstCharacter(sealHash))))
                .startsWith("receipt does not hold: the inclusion proof does not lead from seal_hash to the signed root");
        assertThat(verifyChanged(receipt, original.replace(proofElement, otherFirstCharacter(proofElement))))
                .startsWith("receipt does not hold: the inclusion proof does not lead");
        assertThat(verifyChanged(receipt, original.replace(line, line.replace(" 6 ", " 7 "))))
                .isEqualTo("receipt does not hold: checkpoint: the signature does not verify: the line was altered after"
                        + " signing, or forged");
        Ed25519Keys.SigningKey attacker = Ed25519Keys.readSigningKey(attackerKey);
        String resigned = SignedCheckpoint.sign(SignedCheckpoint.parse(line).checkpoint(), attacker.privateKey(),
                attacker.publicKey()).line();
        assertThat(verifyChanged(receipt, original.replace(line, resigned)))
                .startsWith("receipt does not hold: checkpoint: signed by another key");
        assertThat(verifyChanged(receipt, "{\"receipt\": \"something else\"}")).startsWith(
                "receipt does not hold: not a ClaimGuard receipt: \"receipt\" is neither claimguard-inclusion-v1");
        assertThat(verifyChanged(receipt, original)).startsWith("receipt holds: ");
    }

    @Test
    @DisplayName("Scenario: A consistency receipt proves that a later checkpoint extends an earlier one")
    void consistencyReceiptHolds() throws Exception {
        sealedRows(3);
        checkpoints.checkpointIfMoved().orElseThrow();
        sealedRows(5);
        checkpoints.checkpointIfMoved().orElseThrow();
        Path receipt = work.resolve("consistency.json");

        Run proved = prove("--consistency-from", "3", "--out", receipt.toString());
        assertThat(proved.exitCode()).as(proved.toString()).isZero();
        String original = Files.readString(receipt);
        assertThat(verifyChanged(receipt, original)).matches(
                "receipt holds: the chain signed at \\S+ \\(8 seals\\) extends the one signed at \\S+ \\(3 seals\\) unchanged");

        String proofElement = ((Receipt.Consistency) Receipts.fromJson(original)).consistencyProof().get(0);
        assertThat(verifyChanged(receipt, original.replace(proofElement, otherFirstCharacter(proofElement))))
                .startsWith("receipt does not hold: the consistency proof does not hold");
        assertThat(prove("--consistency-from", "4").exitCode()).as("no checkpoint of that size").isEqualTo(1);
    }

    @Test
    @DisplayName("Scenario: No receipt is made for a row no checkpoint covers yet, an unknown row, or a chain that no longer matches")
    void noReceiptWithoutAMatchingCheckpoint() throws Exception {
        sealedRows(3);
        checkpoints.checkpointIfMoved().orElseThrow();
        sealedRows(1);

        Run notYet = prove("--audit-id", Long.toString(auditIds.get(3)));
        assertThat(notYet.exitCode()).isEqualTo(3);
        assertThat(notYet.errors()).contains("is sealed (seal seq " + sealSeqOf(auditIds.get(3))
                + ") but no checkpoint covers it yet");
        Run unknown = prove("--audit-id", "999999");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.errors()).contains("there is no audit row with audit_id 999999");

        long firstRewritten = sealSeqOf(auditIds.get(1));
        asOwner("DELETE FROM claimguard.audit_seal WHERE seq >= " + firstRewritten,
                "DELETE FROM claimguard.audit_seal_key WHERE seq >= " + firstRewritten,
                "SELECT setval('claimguard.audit_seal_seq_seq', " + (firstRewritten - 1) + ")",
                "UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = " + auditIds.get(1));
        sealer.sealAllRows();
        Run rewritten = prove("--audit-id", Long.toString(auditIds.get(0)));
        assertThat(rewritten.exitCode()).isEqualTo(1);
        assertThat(rewritten.errors()).contains("the chain no longer matches the checkpoint (size 3,");
    }

    @Test
    @DisplayName("Scenario: A consistency proof from a tree size no checkpoint has names the sizes there are")
    void aTreeSizeWithoutACheckpointNamesTheSizesThereAre() throws Exception {
        sealedRows(3);
        checkpoints.checkpointIfMoved().orElseThrow();
        sealedRows(2);
        checkpoints.checkpointIfMoved().orElseThrow();

        Run wrongSize = prove("--consistency-from", "4");

        assertThat(wrongSize.exitCode()).isEqualTo(1);
        assertThat(wrongSize.errors()).isEqualTo("claimguard prove: no checkpoint of tree size 4 in the checkpoint log; its"
                + " checkpoints have the tree sizes 3, 5 (2 in all; the third field of each line)\n");
    }

    @Test
    @DisplayName("Scenario: The documented key, chain and receipt examples run as written")
    void theDocumentedExamplesRunAsWritten() throws Exception {
        List<String> checkpointsBlock = documentedBashBlock("bin/claimguard keygen");
        int service = indexOf(checkpointsBlock, "java -jar");
        Path folder = Files.createDirectories(work.resolve("walk-through"));
        Files.createDirectories(folder.resolve("bin"));
        Files.createSymbolicLink(folder.resolve("bin/claimguard"), Path.of("bin/claimguard").toAbsolutePath());

        Shell before = shell(folder, checkpointsBlock.subList(0, service));
        assertThat(before.exitCode()).as(before.toString()).isZero();
        // the service's part: three inputs sealed and a checkpoint signed, then two more, as the page's output shows
        checkpointDirectory = folder.resolve("data/checkpoints");
        checkpoints = writerWith(Ed25519Keys.readSigningKey(folder.resolve("data/keys/checkpoint.key")));
        sealedRows(3);
        checkpoints.checkpointIfMoved().orElseThrow();
        sealedRows(2);
        checkpoints.checkpointIfMoved().orElseThrow();
        List<String> after = new ArrayList<>(checkpointsBlock.subList(service + 1, checkpointsBlock.size()));
        after.addAll(documentedBashBlock("bin/claimguard prove"));

        Shell walkThrough = shell(folder, after);

        assertThat(walkThrough.exitCode()).as(walkThrough.toString()).isZero();
        assertThat(walkThrough.out().lines().toList()).as(walkThrough.toString())
                .anyMatch(line -> line.startsWith("checkpoints intact: 2 signed checkpoints verified against the chain"))
                .anyMatch(line -> line.startsWith("receipt holds: audit_id 2 (request id "))
                .anyMatch(line -> line.matches("receipt holds: the chain signed at .* \\(5 seals\\) extends the one signed at"
                        + " .* \\(3 seals\\) unchanged"));
        assertThat(auditIds.get(1)).as("the page proves audit_id 2: the second row of a fresh database").isEqualTo(2);
    }

    // ---- helpers

    private record Shell(int exitCode, String out, String err) {
    }

    /**
     * The lines run by {@code sh -eu} in the folder, as an operator would: the wrapper runs the jar the build packaged,
     * and the tools reach the test's database through the service's own environment variables.
     */
    private Shell shell(Path folder, List<String> lines) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-euc", String.join("\n", lines)).directory(folder.toFile());
        builder.environment().put("CLAIMGUARD_JAR", builtJar().toAbsolutePath().toString());
        // a tool runs for a second: the quick compiler alone starts it sooner (the wrapper passes JAVA_OPTS on)
        builder.environment().put("JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        builder.environment().put("SPRING_DATASOURCE_URL", database.jdbcUrl());
        builder.environment().put("SPRING_DATASOURCE_USERNAME", database.username());
        builder.environment().put("SPRING_DATASOURCE_PASSWORD", database.password());
        Process process = builder.start();
        process.getOutputStream().close();
        java.util.concurrent.CompletableFuture<byte[]> err =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
        return new Shell(process.exitValue(), out, new String(err.join(), StandardCharsets.UTF_8));
    }

    private static byte[] readAll(java.io.InputStream stream) {
        try {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The packaged jar (failsafe runs after the package phase). */
    private static Path builtJar() throws IOException {
        try (var files = Files.list(Path.of("target"))) {
            return files.filter(file -> file.getFileName().toString().matches("claimguard-[^-].*\\.jar")
                    && !file.getFileName().toString().endsWith("-sources.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("run 'mvn package' (or verify) first: no target/claimguard-*.jar"));
        }
    }

    /** The lines of docs/integrity.md's first bash block holding the text: its commands, as written. */
    private static List<String> documentedBashBlock(String holding) throws IOException {
        String readme = Files.readString(INTEGRITY_PAGE);
        java.util.regex.Matcher blocks = java.util.regex.Pattern.compile("```bash\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(readme);
        while (blocks.find()) {
            if (blocks.group(1).contains(holding)) {
                return blocks.group(1).lines().toList();
            }
        }
        throw new AssertionError(INTEGRITY_PAGE + " has no bash block with " + holding);
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line with " + text + " in " + lines);
    }

    private Run prove(String... what) {
        List<String> args = new ArrayList<>(List.of("prove"));
        args.addAll(List.of(what));
        args.addAll(List.of("--checkpoints", checkpointDirectory.toString(), "--db-url", database.jdbcUrl(),
                "--db-user", database.username(), "--db-password", database.password()));
        return cli(args.toArray(String[]::new));
    }

    /** Writes the receipt text and checks it; returns the one line verify-receipt printed. */
    private String verifyChanged(Path receipt, String text) throws IOException {
        Files.writeString(receipt, text);
        Run run = cli("verify-receipt", receipt.toString(), "--public-key", keyFile + ".pub");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(run.lines().get(0).startsWith("receipt holds") ? 0 : 1);
        return run.lines().get(0);
    }

    /** The same text with another first character: a hex or base64 value that decodes to other bytes. */
    private static String otherFirstCharacter(String value) {
        return (value.charAt(0) == 'a' ? "b" : "a") + value.substring(1);
    }

    private static String receiptField(Path receipt, String field) throws IOException {
        return JsonMapper.builder().build().readTree(Files.readString(receipt)).path(field).asString();
    }

    private CheckpointWriter writerWith(Ed25519Keys.SigningKey key) throws IOException {
        return new CheckpointWriter(writer, DirectoryCheckpointLog.create(checkpointDirectory), key,
                "claimguard/test-origin", Duration.ofMinutes(1), Clock.fixed(NOON, ZoneOffset.UTC));
    }

    /** The full verification: the whole chain and every checkpoint. */
    private Run verify() {
        return cli(verifyArguments(checkpointDirectory));
    }

    /** verify-chain with the checkpoints, without --full: the seals after the checkpoint before the newest. */
    private Run verifyIncrementally() {
        return cli("verify-chain", "--db-url", database.jdbcUrl(), "--db-user", database.username(),
                "--db-password", database.password(), "--checkpoints", checkpointDirectory.toString(),
                "--public-key", keyFile + ".pub");
    }

    private String[] verifyArguments(Path directory) {
        return new String[] {"verify-chain", "--db-url", database.jdbcUrl(), "--db-user", database.username(),
            "--db-password", database.password(), "--checkpoints", directory.toString(),
            "--public-key", keyFile + ".pub", "--full"};
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = ClaimGuardCli.execute(args, new PrintWriter(out, true, StandardCharsets.UTF_8),
                new PrintWriter(err, true, StandardCharsets.UTF_8));
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString(StandardCharsets.UTF_8));
    }

    private Path onlyLogFile() throws IOException {
        try (var files = Files.list(checkpointDirectory)) {
            return files.toList().stream().reduce((a, b) -> {
                throw new AssertionError("more than one log file");
            }).orElseThrow();
        }
    }

    /** Inserts rows as the service's role does and seals them. */
    private void sealedRows(int count) throws SQLException {
        try (Connection connection = writer.getConnection();
                PreparedStatement insert = connection.prepareStatement("""
                        INSERT INTO claimguard.verification_audit (
                            request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                            guard_reasons, projection_mode, groundedness_score, critical_fact_count, audit, input_sha256)
                        VALUES (?, 'jms', ?, now(), 'PASS', 'REJECT', true, '{gatekeeper.fail}', 'claim_checks', 0.5, 0,
                                jsonb_build_object('request_id', ?::text), sha256(?::bytea))
                        RETURNING id""")) {
            for (int row = 0; row < count; row++) {
                String requestId = "checkpoint-" + UUID.randomUUID();
                insert.setString(1, requestId);
                insert.setString(2, "ID:" + requestId);
                insert.setString(3, requestId);
                insert.setString(4, requestId);
                try (ResultSet rs = insert.executeQuery()) {
                    rs.next();
                    auditIds.add(rs.getLong(1));
                }
            }
        }
        assertThat(sealer.sealAllRows()).isEqualTo(count);
    }

    private long sealSeqOf(long auditId) throws SQLException {
        try (Connection connection = database.connect();
                PreparedStatement query = connection.prepareStatement("SELECT seq FROM claimguard.audit_seal WHERE audit_id = ?")) {
            query.setLong(1, auditId);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void removeWithSeal(long auditId) throws SQLException {
        asOwner("DELETE FROM claimguard.audit_seal WHERE audit_id = " + auditId,
                "DELETE FROM claimguard.claim_check WHERE audit_id = " + auditId,
                "DELETE FROM claimguard.verification_audit WHERE id = " + auditId);
    }

    /** Statements run as the owner, who may do what the service's role may not. */
    private void asOwner(String... statements) throws SQLException {
        try (Connection owner = database.connect(); Statement statement = owner.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
