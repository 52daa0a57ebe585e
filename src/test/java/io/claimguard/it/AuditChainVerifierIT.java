package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.checkpoint.Checkpoint;
import io.claimguard.checkpoint.DirectoryCheckpointLog;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import io.claimguard.cli.ClaimGuardCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The verify command against the service's own database, tampered with behind its back as the owner would. The
 * database is shared with every service test, so each test tampers only with rows it made and saw sealed, puts
 * them back exactly, and expects the first break where it tampered: every seal before its rows is intact.
 */
class AuditChainVerifierIT extends ServiceTestSupport {

    private static final Pattern INTACT = Pattern.compile("audit chain intact: (\\d+) rows sealed, (\\d+) not yet sealed");
    private static final Pattern HEAD = Pattern.compile("chain head: seal seq (\\d+), hash ([0-9a-f]{64})");

    private record Run(int exitCode, List<String> lines, String errors) {
    }

    @Test
    @DisplayName("Scenario: An intact chain verifies, rows not yet sealed included")
    void intactChainVerifies() throws SQLException {
        sealedInput("intact");
        long sealedBefore = SQL.queryForObject("SELECT count(*) FROM claimguard.audit_seal", Long.class);

        Run run = verify();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        Matcher intact = INTACT.matcher(run.lines().get(0));
        assertThat(intact.matches()).as(run.lines().get(0)).isTrue();
        assertThat(Long.parseLong(intact.group(1))).isGreaterThanOrEqualTo(sealedBefore);
        Matcher head = HEAD.matcher(run.lines().get(1));
        assertThat(head.matches()).as(run.lines().get(1)).isTrue();
        assertThat(hashOfSeal(Long.parseLong(head.group(1)))).isEqualTo(head.group(2));

        // reading is all it takes: the analysts' role gets the same verdict
        try (Connection connection = DATABASE.connect()) {
            try (PreparedStatement role = connection.prepareStatement("SELECT set_config('role', 'claimguard_reader', false)")) {
                role.executeQuery().close();
            }
            ChainReport asReader = AuditChainVerifier.verify(connection);
            assertThat(asReader.intact()).as(asReader.lines().toString()).isTrue();
            assertThat(asReader.verifiedSeals()).isGreaterThanOrEqualTo(sealedBefore);
        }

        // an audited row the sealer has not reached yet is counted, and is no break
        String unsealed = uniqueId("not-yet-sealed");
        try (Connection otherSealer = DATABASE.connect()) {
            holdSealerLock(otherSealer);
            sendText(gatekeeperFailedV2(unsealed), unsealed);
            awaitAuditRow(unsealed);
            Run whileHeldUp = verify();
            assertThat(whileHeldUp.exitCode()).as(whileHeldUp.toString()).isZero();
            Matcher counts = INTACT.matcher(whileHeldUp.lines().get(0));
            assertThat(counts.matches()).isTrue();
            assertThat(Long.parseLong(counts.group(2))).isGreaterThanOrEqualTo(1);
        }
        await().atMost(PATIENCE).until(() -> sealed(unsealed));
    }

    @Test
    @DisplayName("Scenario: An altered audit row is named by the verifier")
    void alteredRowIsNamed() {
        long auditId = sealedInput("altered");
        String storedHash = hashOfSealFor(auditId);
        Pattern altered = Pattern.compile(Pattern.quote("audit_id=" + auditId + ": content altered (stored hash "
                + storedHash + ", recomputed ") + "([0-9a-f]{64})\\)");

        SQL.update("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = ?", auditId);
        Run afterVerdictChange;
        try {
            afterVerdictChange = verify();
        } finally {
            SQL.update("UPDATE claimguard.verification_audit SET effective_verdict = 'REJECT' WHERE id = ?", auditId);
        }
        assertThat(afterVerdictChange.exitCode()).as(afterVerdictChange.toString()).isEqualTo(1);
        Matcher named = altered.matcher(afterVerdictChange.lines().get(0));
        assertThat(named.matches()).as(afterVerdictChange.lines().get(0)).isTrue();
        assertThat(named.group(1)).isNotEqualTo(storedHash);

        // the claim checks are covered too
        SQL.update("UPDATE claimguard.claim_check SET verification = 'direct_observation' WHERE audit_id = ? AND ordinal = 1",
                auditId);
        Run afterClaimChange;
        try {
            afterClaimChange = verify();
        } finally {
            SQL.update("UPDATE claimguard.claim_check SET verification = 'external_unknown' WHERE audit_id = ? AND ordinal = 1",
                    auditId);
        }
        assertThat(afterClaimChange.exitCode()).isEqualTo(1);
        assertThat(altered.matcher(afterClaimChange.lines().get(0)).matches()).as(afterClaimChange.lines().get(0)).isTrue();

        assertThat(verify().exitCode()).as("restored").isZero();
    }

    @Test
    @DisplayName("Scenario: A row removed together with its seal is reported at the next seal")
    void rowRemovedWithItsSealIsReported() throws SQLException {
        sealedInput("before-removed");
        long removed = sealedInput("removed");
        sealedInput("after-removed");
        long removedSeq = sealSeqOf(removed);
        long seqBefore = SQL.queryForObject("SELECT max(seq) FROM claimguard.audit_seal WHERE seq < ?", Long.class, removedSeq);
        long seqAfter = SQL.queryForObject("SELECT min(seq) FROM claimguard.audit_seal WHERE seq > ?", Long.class, removedSeq);

        Run run;
        try (Connection owner = DATABASE.connect()) {
            removeAndKeep(owner, removed, true);
            try {
                run = verify();
            } finally {
                putBack(owner, true);
            }
        }

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.lines().get(0)).isEqualTo("seal seq " + seqAfter + ": previous_hash does not match seal " + seqBefore);
        assertThat(verify().exitCode()).as("restored").isZero();
    }

    @Test
    @DisplayName("Scenario: A sealed row removed around its foreign key is reported as gone")
    void rowRemovedAroundItsForeignKeyIsReportedAsGone() throws SQLException {
        long removed = sealedInput("gone");
        long removedSeq = sealSeqOf(removed);

        Run run;
        try (Connection owner = DATABASE.connect()) {
            removeAndKeep(owner, removed, false);
            try {
                run = verify();
            } finally {
                putBack(owner, false);
            }
        }

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.lines().get(0)).isEqualTo("seal seq " + removedSeq + " references audit_id " + removed + ", which is gone");
        assertThat(verify().exitCode()).as("restored").isZero();
    }

    @Test
    @DisplayName("Scenario: The service signs checkpoints of the chain's head, which the chain still contains")
    void serviceSignsCheckpoints() throws Exception {
        sealedInput("checkpointed");
        long seals = SQL.queryForObject("SELECT count(*) FROM claimguard.audit_seal", Long.class);
        DirectoryCheckpointLog log = new DirectoryCheckpointLog(CHECKPOINTS);
        await().atMost(PATIENCE).until(() -> log.latest().map(c -> c.checkpoint().treeSize()).orElse(0L) >= seals);
        Checkpoint newest = log.latest().orElseThrow().checkpoint();
        assertThat(newest.origin()).isEqualTo("claimguard/127.0.0.1:" + DATABASE_PROXY.port() + "/" + DATABASE.databaseName());

        Run run = verify("--checkpoints", CHECKPOINTS.toString(), "--public-key", CHECKPOINT_KEY + ".pub", "--full");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).anyMatch(line -> line.matches("checkpoints intact: \\d+ signed checkpoints verified against"
                + " the chain, the newest size \\d+, .*"));
    }

    // ---- helpers

    /** Sends an input, waits until its row is sealed, and returns its audit id. */
    private long sealedInput(String prefix) {
        String requestId = uniqueId(prefix);
        sendText(gatekeeperFailedV2(requestId), requestId);
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        return auditId;
    }

    private static Run verify(String... checkpointOptions) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("verify-chain",
                "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(), "--db-password", DATABASE.password()));
        args.addAll(List.of(checkpointOptions));
        int exitCode = ClaimGuardCli.execute(args.toArray(String[]::new),
                new PrintWriter(out, true, StandardCharsets.UTF_8), new PrintWriter(err, true, StandardCharsets.UTF_8));
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString(StandardCharsets.UTF_8));
    }

    private static long sealSeqOf(long auditId) {
        return SQL.queryForObject("SELECT seq FROM claimguard.audit_seal WHERE audit_id = ?", Long.class, auditId);
    }

    private static String hashOfSealFor(long auditId) {
        return HexFormat.of().formatHex(SQL.queryForObject(
                "SELECT hash FROM claimguard.audit_seal WHERE audit_id = ?", byte[].class, auditId));
    }

    private static String hashOfSeal(long seq) {
        return HexFormat.of().formatHex(SQL.queryForObject(
                "SELECT hash FROM claimguard.audit_seal WHERE seq = ?", byte[].class, seq));
    }

    /**
     * Deletes the audit row, its claim checks and its findings in one transaction, keeping copies in temporary tables of this
     * session: with its seal (as the foreign key demands), or leaving the seal with the foreign key not enforced
     * for the transaction, as a superuser can.
     */
    private static void removeAndKeep(Connection owner, long auditId, boolean withSeal) throws SQLException {
        owner.setAutoCommit(false);
        try (Statement statement = owner.createStatement()) {
            statement.execute("CREATE TEMP TABLE kept_audit (LIKE claimguard.verification_audit)");
            statement.execute("CREATE TEMP TABLE kept_claims (LIKE claimguard.claim_check)");
            statement.execute("CREATE TEMP TABLE kept_findings (LIKE claimguard.finding)");
            statement.execute("CREATE TEMP TABLE kept_seal (LIKE claimguard.audit_seal)");
            if (!withSeal) {
                statement.execute("SET LOCAL session_replication_role = replica");
            }
        }
        update(owner, "INSERT INTO kept_audit SELECT * FROM claimguard.verification_audit WHERE id = ?", auditId);
        update(owner, "INSERT INTO kept_claims SELECT * FROM claimguard.claim_check WHERE audit_id = ?", auditId);
        update(owner, "INSERT INTO kept_findings SELECT * FROM claimguard.finding WHERE audit_id = ?", auditId);
        if (withSeal) {
            update(owner, "INSERT INTO kept_seal SELECT * FROM claimguard.audit_seal WHERE audit_id = ?", auditId);
            update(owner, "DELETE FROM claimguard.audit_seal WHERE audit_id = ?", auditId);
        }
        update(owner, "DELETE FROM claimguard.claim_check WHERE audit_id = ?", auditId);
        update(owner, "DELETE FROM claimguard.finding WHERE audit_id = ?", auditId);
        update(owner, "DELETE FROM claimguard.verification_audit WHERE id = ?", auditId);
        owner.commit();
    }

    /** Puts back exactly what {@link #removeAndKeep} removed, in one transaction, so the sealer never sees half of it. */
    private static void putBack(Connection owner, boolean withSeal) throws SQLException {
        try (Statement statement = owner.createStatement()) {
            statement.execute("INSERT INTO claimguard.verification_audit SELECT * FROM kept_audit");
            statement.execute("INSERT INTO claimguard.claim_check SELECT * FROM kept_claims");
            statement.execute("INSERT INTO claimguard.finding SELECT * FROM kept_findings");
            if (withSeal) {
                statement.execute("INSERT INTO claimguard.audit_seal SELECT * FROM kept_seal");
            }
        }
        owner.commit();
    }

    private static void update(Connection connection, String sql, long auditId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, auditId);
            statement.executeUpdate();
        }
    }
}
