package io.claimguard.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.checkpoint.CheckpointWriter;
import io.claimguard.checkpoint.DirectoryCheckpointLog;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.checkpoint.SignedCheckpoint;
import io.claimguard.cli.ClaimGuardCli;
import io.claimguard.seal.AuditSealer;
import io.claimguard.testkit.TestDatabase;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code claimguard archive} on a database with audits of an old month and of now, all sealed: the old month's
 * partitions go to an archive file and are dropped; {@code verify-chain} and {@code prove} then work across the archive
 * and the live tables, and any change to the archive file is detected.
 */
class ArchiveIT {

    private static final String OLD = "2026-09-10 09:00:00+00";

    @TempDir
    Path work;

    private TestDatabase database;
    private HikariDataSource writer;
    private Path keyFile;
    private Path archives;

    private record Run(int exitCode, List<String> lines, String errors) {
    }

    @BeforeEach
    void oldAndNewAuditsSealed() throws SQLException {
        database = TestDatabase.createSeparate().migrated();
        writer = database.poolActingAs("claimguard_writer", 2);
        try (Connection owner = database.connect(); Statement sql = owner.createStatement()) {
            sql.execute("SELECT claimguard.create_audit_partitions(DATE '2026-09-01', 3)");
            for (int i = 0; i < 3; i++) {
                insertAudit(sql, "old-" + i, "timestamptz '" + OLD + "'");
            }
            sql.execute("""
                    INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                        payload_sha256, payload_size, payload_truncated, recorded_at)
                    VALUES ('file', 'old.json', timestamptz '%s', 'not_json', 'old', '\\x00', sha256('\\x00'), 1, false,
                            timestamptz '%s')""".formatted(OLD, OLD));
            for (int i = 0; i < 2; i++) {
                insertAudit(sql, "new-" + i, "now()");
            }
        }
        new AuditSealer(writer, 100, Duration.ofMinutes(10)).sealAllRows();
        keyFile = work.resolve("checkpoint.key");
        assertThat(cli("keygen", "--out", keyFile.toString()).exitCode()).isZero();
        archives = work.resolve("archives");
    }

    @AfterEach
    void drop() {
        writer.close();
        database.drop();
    }

    @Test
    @DisplayName("Scenario: An archived partition is dropped, and verify-chain and prove of an archived audit still succeed")
    void archivedPartitionIsDroppedAndStillProven() throws Exception {
        long archivedAudit = count("SELECT id FROM claimguard.verification_audit WHERE request_id = 'old-0'");
        Run archived = archive("30d");
        assertThat(archived.exitCode()).as(archived.toString()).isZero();
        assertThat(archived.lines().get(0)).contains("2026_09").contains("3 sealed audits").contains("1 dead letters");
        assertThat(tables()).as("the old month's partitions are gone, the key tables stay")
                .noneMatch(name -> name.endsWith("_2026_09")).contains("audit_input_key", "audit_seal_key", "dead_letter_key");
        assertThat(count("SELECT count(*) FROM claimguard.verification_audit")).isEqualTo(2);
        // the key table still refuses the archived bytes
        try (Connection owner = database.connect(); Statement sql = owner.createStatement()) {
            assertThatThrownBy(() -> insertAudit(sql, "old-0", "now()")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("verification_audit_input_sha256_key");
        }
        assertThat(archive("30d").lines().get(0)).as("a second run finds nothing more").contains("nothing archived");

        Run verified = cli("verify-chain", "--db-url", database.jdbcUrl(), "--archives", archives.toString(),
                "--public-key", keyFile + ".pub");
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
        assertThat(String.join("\n", verified.lines())).contains("3 archived seals verified").contains("audit chain intact after seal seq");

        Path receipt = work.resolve("receipt.json");
        Run proved = cli("prove", "--audit-id", Long.toString(archivedAudit), "--archives", archives.toString(),
                "--db-url", database.jdbcUrl(), "--out", receipt.toString());
        assertThat(proved.exitCode()).as(proved.toString()).isZero();
        assertThat(Files.readString(receipt)).contains("\"request_id\" : \"old-0\"");
        Run receiptChecked = cli("verify-receipt", receipt.toString(), "--public-key", keyFile + ".pub");
        assertThat(receiptChecked.exitCode()).as(receiptChecked.toString()).isZero();
        assertThat(String.join("\n", receiptChecked.lines())).contains("audit_id " + archivedAudit);

        // the service's checkpoint writer, started after the archive, goes on from the archived seals: its checkpoint
        // covers all five, and the archived audit is proven against it
        Path checkpointDirectory = work.resolve("checkpoints");
        SignedCheckpoint afterArchive = new CheckpointWriter(writer, DirectoryCheckpointLog.create(checkpointDirectory),
                Ed25519Keys.readSigningKey(keyFile), "claimguard/test-origin", Duration.ofMinutes(1), Clock.systemUTC())
                .checkpointIfMoved().orElseThrow();
        assertThat(afterArchive.checkpoint().treeSize()).isEqualTo(5);
        Path laterReceipt = work.resolve("later-receipt.json");
        Run provedLater = cli("prove", "--audit-id", Long.toString(archivedAudit), "--archives", archives.toString(),
                "--checkpoints", checkpointDirectory.toString(), "--db-url", database.jdbcUrl(), "--out",
                laterReceipt.toString());
        assertThat(provedLater.exitCode()).as(provedLater.toString()).isZero();
        assertThat(Files.readString(laterReceipt)).contains(afterArchive.line());
        assertThat(cli("verify-receipt", laterReceipt.toString(), "--public-key", keyFile + ".pub").exitCode()).isZero();
    }

    @Test
    @DisplayName("Scenario: A tampered archive file is detected")
    void tamperedArchiveIsDetected() throws Exception {
        long archivedAudit = count("SELECT id FROM claimguard.verification_audit WHERE request_id = 'old-0'");
        assertThat(archive("30d").exitCode()).isZero();
        Path file;
        try (Stream<Path> files = Files.list(archives)) {
            file = files.filter(path -> path.getFileName().toString().endsWith(".jsonl.gz")).findFirst().orElseThrow();
        }
        List<String> lines = read(file);
        List<String> tampered = new ArrayList<>(lines);
        tampered.set(2, lines.get(2).replace("old-1", "old-X"));
        write(file, tampered);

        Run verified = cli("verify-chain", "--db-url", database.jdbcUrl(), "--archives", archives.toString(),
                "--public-key", keyFile + ".pub");
        assertThat(verified.exitCode()).as(verified.toString()).isEqualTo(1);
        assertThat(String.join("\n", verified.lines())).contains("BROKEN").contains("content altered");
        Run proved = cli("prove", "--audit-id", Long.toString(archivedAudit), "--archives", archives.toString(), "--db-url", database.jdbcUrl());
        assertThat(proved.exitCode()).as(proved.toString()).isEqualTo(1);

        // a truncated archive (its checkpoint cut off) is named too
        write(file, lines.subList(0, lines.size() - 1));
        Run truncated = cli("verify-chain", "--db-url", database.jdbcUrl(), "--archives", archives.toString());
        assertThat(truncated.exitCode()).isEqualTo(1);
        assertThat(String.join("\n", truncated.lines())).contains("truncated");
    }

    private Run archive(String maxAge) {
        return cli("archive", "--max-age", maxAge, "--archive-dir", archives.toString(), "--private-key",
                keyFile.toString(), "--db-url", database.jdbcUrl());
    }

    private static void insertAudit(Statement sql, String requestId, String auditedAt) throws SQLException {
        sql.execute("""
                WITH audit AS (
                    INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at,
                        effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256, audited_at)
                    VALUES ('%1$s', 'file', '%1$s.json', %2$s, 'PASS', false, '{}', 'claim_checks', '{}',
                            sha256('%1$s'::bytea), %2$s)
                    RETURNING id, audited_at
                ), claims AS (
                    INSERT INTO claimguard.claim_check (audit_id, ordinal, legacy_verification, is_critical, evidence_refs,
                        audited_at)
                    SELECT id, 0, 'no_evidence', false, '[]', audited_at FROM audit
                )
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                SELECT id, 0, 0, 'evidence.unknown_invocation', 'found', audited_at FROM audit""".formatted(requestId, auditedAt));
    }

    private List<String> tables() throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection owner = database.connect(); Statement sql = owner.createStatement();
                ResultSet rs = sql.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'claimguard'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private long count(String query) throws SQLException {
        try (Connection owner = database.connect(); Statement sql = owner.createStatement();
                ResultSet rs = sql.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> read(Path file) throws IOException {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)),
                StandardCharsets.UTF_8))) {
            return reader.lines().toList();
        }
    }

    private static void write(Path file, List<String> lines) throws IOException {
        try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)),
                StandardCharsets.UTF_8))) {
            for (String line : lines) {
                out.write(line);
                out.write('\n');
            }
        }
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = ClaimGuardCli.execute(args, new PrintWriter(out, true, StandardCharsets.UTF_8),
                new PrintWriter(err, true, StandardCharsets.UTF_8));
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString(StandardCharsets.UTF_8));
    }
}
