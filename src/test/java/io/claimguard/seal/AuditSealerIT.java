package io.claimguard.seal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The sealer on a database of this class's own, driven round by round, with rows inserted and committed by the
 * test in the orders that concurrent writers produce. It connects as the service does: acting as claimguard_writer.
 */
class AuditSealerIT {

    private static final Duration WINDOW = Duration.ofMinutes(10);
    /** The hash after the genesis of {@link #insertFixedRow}'s row, computed by SealHash as it was before V6. */
    private static final String FIXED_ROW_HASH_BEFORE_FINDINGS =
            "d6d1d412a889bd3eead17809e2b28a9d1b1d703389460e0760d09742b16992e9";

    private static TestDatabase database;
    private static HikariDataSource writer;

    private final AuditSealer sealer = new AuditSealer(writer, 3, WINDOW);

    @BeforeAll
    static void migrate() {
        database = TestDatabase.createSeparate().migrated();
        writer = database.poolActingAs("claimguard_writer", 4);
    }

    @AfterAll
    static void closePool() {
        writer.close();
    }

    /** Each test starts from a fully sealed table, whatever the tests before it left. */
    @BeforeEach
    void sealEverything() throws SQLException {
        sealer.sealAllRows();
    }

    @Test
    @DisplayName("Scenario: A round seals every waiting row in id order, batch after batch, each seal linked to the one before")
    void roundSealsEveryWaitingRowInIdOrder() throws SQLException {
        byte[] headBefore = chainHead();
        List<Long> ids = new ArrayList<>();
        for (int row = 0; row < 7; row++) {
            ids.add(insertCommitted(row % 2));
        }

        assertThat(sealer.sealNewRows()).as("rows sealed in batches of 3").isEqualTo(7);
        assertThat(sealer.sealNewRows()).as("a second round").isZero();

        List<StoredSeal> seals = sealsOf(ids);
        assertThat(seals).extracting(StoredSeal::auditId).as("seal order").containsExactlyElementsOf(ids);
        assertThat(seals.get(0).previousHash()).isEqualTo(headBefore);
        for (int i = 1; i < seals.size(); i++) {
            assertThat(seals.get(i).previousHash()).as("previous_hash of seal %d", i).isEqualTo(seals.get(i - 1).hash());
            assertThat(seals.get(i).seq()).isGreaterThan(seals.get(i - 1).seq());
        }
    }

    @Test
    @DisplayName("Scenario: A row that commits after a higher id is sealed in the next round")
    void rowCommittingAfterAHigherIdIsSealed() throws SQLException {
        try (Connection slowWriter = writer.getConnection()) {
            slowWriter.setAutoCommit(false);
            long lower = insert(slowWriter, 1);
            long higher = insertCommitted(0);
            assertThat(lower).isLessThan(higher);

            assertThat(sealer.sealNewRows()).isEqualTo(1);
            assertThat(sealsOf(List.of(lower, higher))).extracting(StoredSeal::auditId).containsExactly(higher);

            slowWriter.commit();
            assertThat(sealer.sealNewRows()).isEqualTo(1);
            List<StoredSeal> seals = sealsOf(List.of(higher, lower));
            assertThat(seals).extracting(StoredSeal::auditId).as("chained in seal order").containsExactly(higher, lower);
            assertThat(seals.get(1).previousHash()).isEqualTo(seals.get(0).hash());
        }
    }

    @Test
    @DisplayName("Scenario: A row whose insert stayed open longer than the full-scan interval is sealed by the next full scan")
    void rowOpenLongerThanTheWindowIsSealedByTheFullScan() throws SQLException {
        try (Connection slowWriter = writer.getConnection()) {
            slowWriter.setAutoCommit(false);
            long lower = insert(slowWriter, 0);
            long higher = insertCommitted(0);
            assertThat(sealer.sealNewRows()).isEqualTo(1);
            // as if the lower row's transaction had stayed open for longer than the window since then
            try (Connection owner = database.connect();
                    PreparedStatement age = owner.prepareStatement(
                            "UPDATE claimguard.audit_seal SET sealed_at = sealed_at - interval '1 hour' WHERE audit_id = ?")) {
                age.setLong(1, higher);
                assertThat(age.executeUpdate()).isEqualTo(1);
            }
            slowWriter.commit();

            assertThat(sealer.sealNewRows()).as("new rows only: below the window").isZero();
            assertThat(sealsOf(List.of(lower))).isEmpty();
            assertThat(sealer.sealAllRows()).as("the whole table").isEqualTo(1);
            assertThat(sealsOf(List.of(lower))).hasSize(1);
        }
    }

    @Test
    @DisplayName("Scenario: Only one sealer seals at a time")
    void onlyOneSealerAtATime() throws SQLException {
        long waiting = insertCommitted(1);
        try (Connection otherSealer = database.connect()) {
            holdSealerLock(otherSealer);
            assertThat(sealer.sealNewRows()).isZero();
            assertThat(sealer.sealAllRows()).isZero();
            assertThat(sealsOf(List.of(waiting))).isEmpty();
            // released here, not by closing: a closed session lets go of its locks only once its backend has exited
            releaseSealerLock(otherSealer);
        }
        assertThat(sealer.sealNewRows()).isEqualTo(1);
        assertThat(sealsOf(List.of(waiting))).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: The sealed content does not depend on the session's settings")
    void contentDoesNotDependOnSessionSettings() throws SQLException {
        long auditId = insertCommitted(2);
        byte[] plain = contentOf(auditId, List.of());
        byte[] unusual = contentOf(auditId, List.of(
                "SET TimeZone = 'Pacific/Kiritimati'", "SET DateStyle = 'ISO, DMY'", "SET extra_float_digits = -10",
                "SET bytea_output = 'escape'"));

        assertThat(unusual).isEqualTo(plain);
        assertThat(SealHash.link(SealHash.GENESIS, unusual)).isEqualTo(SealHash.link(SealHash.GENESIS, plain));
    }

    @Test
    @DisplayName("Scenario: A round over a backlog goes on from the last row it sealed, so catching up stays linear")
    void roundOverABacklogGoesOnFromTheLastRowItSealed() throws SQLException {
        long before = chainSize();
        try (Connection owner = database.connect(); Statement fill = owner.createStatement()) {
            fill.execute("""
                    INSERT INTO claimguard.verification_audit (
                        request_id, source, source_ref, received_at, effective_verdict, downgraded, guard_reasons,
                        projection_mode, audit, input_sha256)
                    SELECT 'backlog-' || n, 'file', 'backlog-' || n, now(), 'PASS', false, '{}', 'none', '{}',
                           sha256(('backlog-' || n || '-' || gen_random_uuid())::bytea)
                    FROM generate_series(1, 3000) AS n""");
        }
        AuditSealer catchingUp = new AuditSealer(writer, 500, WINDOW);
        assertThat(catchingUp.sealNewRows()).as("the whole backlog in one round").isEqualTo(3000);
        assertThat(chainSize()).isEqualTo(before + 3000);
        try (Connection owner = database.connect(); Statement analyze = owner.createStatement()) {
            analyze.execute("VACUUM ANALYZE claimguard.verification_audit, claimguard.audit_seal");
        }
        long nearTheEnd = highestAuditId() - 10;

        assertThat(rowsReadByABatch(nearTheEnd)).as("rows a batch reads above the last row its round sealed")
                .isLessThan(100);
        assertThat(rowsReadByABatch(0)).as("rows a batch reads from the start").isGreaterThan(3000);
    }

    /** Rows read by every scan of the sealer's batch query looking above this id (EXPLAIN ANALYZE). */
    private static long rowsReadByABatch(long above) throws SQLException {
        Pattern scanned = Pattern.compile("Scan.*actual time=\\S+ rows=(\\d+) loops=(\\d+)");
        long read = 0;
        try (Connection connection = writer.getConnection();
                PreparedStatement explain = connection.prepareStatement("EXPLAIN ANALYZE " + AuditSealer.UNSEALED_ROWS)) {
            explain.setLong(1, above);
            explain.setLong(2, above);
            explain.setInt(3, 500);
            try (ResultSet rs = explain.executeQuery()) {
                while (rs.next()) {
                    Matcher scan = scanned.matcher(rs.getString(1));
                    if (scan.find()) {
                        read += Long.parseLong(scan.group(1)) * Long.parseLong(scan.group(2));
                    }
                }
            }
        }
        return read;
    }

    private static long chainSize() throws SQLException {
        return longOf("SELECT count(*) FROM claimguard.audit_seal");
    }

    private static long highestAuditId() throws SQLException {
        return longOf("SELECT max(id) FROM claimguard.verification_audit");
    }

    private static long longOf(String sql) throws SQLException {
        try (Connection connection = database.connect(); Statement query = connection.createStatement();
                ResultSet rs = query.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    @DisplayName("Scenario: A row without findings seals exactly as before findings existed")
    void rowWithoutFindingsSealsAsBefore() throws SQLException {
        try (Connection owner = database.connect()) {
            owner.setAutoCommit(false);
            try {
                long auditId = insertFixedRow(owner);
                String withoutFindings = SealHash.hex(SealHash.link(SealHash.GENESIS, contentOf(owner, auditId)));
                // this row's hash as SealHash computed it before V6 added findings
                assertThat(withoutFindings).isEqualTo(FIXED_ROW_HASH_BEFORE_FINDINGS);

                try (PreparedStatement finding = owner.prepareStatement("""
                        INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                        SELECT id, 0, NULL, 'consistency.groundedness_at_odds', 'groundedness_score 0.62 under ...',
                               audited_at
                        FROM claimguard.verification_audit WHERE id = ?""")) {
                    finding.setLong(1, auditId);
                    finding.executeUpdate();
                }
                assertThat(SealHash.hex(SealHash.link(SealHash.GENESIS, contentOf(owner, auditId))))
                        .isNotEqualTo(withoutFindings);
            } finally {
                owner.rollback();
            }
        }
    }

    // ---- helpers

    /** An audit row and one claim check whose every value is fixed, its id included; the caller rolls it back. */
    private static long insertFixedRow(Connection owner) throws SQLException {
        long auditId = 4_000_000_001L;
        try (PreparedStatement insert = owner.prepareStatement("""
                INSERT INTO claimguard.verification_audit (
                    id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                    guard_reasons, projection_mode, groundedness_score, critical_fact_count, audit, input_sha256,
                    audited_at)
                VALUES (?, 'req-fixed', 'jms', 'ID:fixed', '2026-12-03T10:00:00Z', 'PASS', 'LOW_CONFID', true,
                        '{gatekeeper.fail}', 'claim_checks', 0.62, 1, '{"request_id": "req-fixed"}',
                        sha256('fixed'::bytea), '2026-12-03T10:00:01.5Z')""")) {
            insert.setLong(1, auditId);
            insert.executeUpdate();
        }
        try (PreparedStatement claim = owner.prepareStatement("""
                INSERT INTO claimguard.claim_check (
                    audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                    is_critical, detail, evidence_refs, audited_at)
                VALUES (?, 0, 'claim-1', 'CPU is high', 'symptom', 'direct_observation', 'direct_evidence', true,
                        NULL, '[{"trace_ref": "trace-1"}]', '2026-12-03T10:00:01.5Z')""")) {
            claim.setLong(1, auditId);
            claim.executeUpdate();
        }
        return auditId;
    }

    private static byte[] contentOf(Connection connection, long auditId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT " + SealHash.CONTENT_COLUMNS + " FROM claimguard.verification_audit AS a WHERE a.id = ?")) {
            query.setLong(1, auditId);
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return SealHash.content(rs);
            }
        }
    }

    private static byte[] contentOf(long auditId, List<String> sessionSettings) throws SQLException {
        try (Connection connection = database.connect()) {
            connection.setAutoCommit(false);
            try (Statement settings = connection.createStatement()) {
                for (String setting : sessionSettings) {
                    settings.execute(setting);
                }
            }
            try {
                return contentOf(connection, auditId);
            } finally {
                connection.rollback();
            }
        }
    }

    private static long insertCommitted(int claims) throws SQLException {
        try (Connection connection = writer.getConnection()) {
            return insert(connection, claims);
        }
    }

    /** An audit row with this many claim checks, written the way the service's role writes (INSERT only). */
    private static long insert(Connection connection, int claims) throws SQLException {
        String requestId = "sealer-" + UUID.randomUUID();
        long id;
        OffsetDateTime auditedAt;
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO claimguard.verification_audit (
                    request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                    guard_reasons, projection_mode, groundedness_score, critical_fact_count, audit, input_sha256)
                VALUES (?, 'jms', ?, now(), 'PASS', 'LOW_CONFID', true, '{gatekeeper.fail}', 'claim_checks', 0.62, 1,
                        jsonb_build_object('envelope', jsonb_build_object('request_id', ?::text)), sha256(?::bytea))
                RETURNING id, audited_at""")) {
            insert.setString(1, requestId);
            insert.setString(2, "ID:" + requestId);
            insert.setString(3, requestId);
            insert.setString(4, requestId);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
                auditedAt = rs.getObject(2, OffsetDateTime.class);
            }
        }
        for (int ordinal = 0; ordinal < claims; ordinal++) {
            try (PreparedStatement claim = connection.prepareStatement("""
                    INSERT INTO claimguard.claim_check (
                        audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                        is_critical, detail, evidence_refs, audited_at)
                    VALUES (?, ?, 'claim-1', 'CPU is high', 'symptom', 'direct_observation', 'direct_evidence', true,
                            NULL, '[{"trace_ref": "trace-1"}]', ?)""")) {
                claim.setLong(1, id);
                claim.setInt(2, ordinal);
                claim.setObject(3, auditedAt);
                claim.executeUpdate();
            }
        }
        return id;
    }

    private record StoredSeal(long seq, long auditId, byte[] previousHash, byte[] hash) {
    }

    /** The seals of these rows, in seal order. */
    private static List<StoredSeal> sealsOf(List<Long> auditIds) throws SQLException {
        try (Connection connection = database.connect();
                PreparedStatement query = connection.prepareStatement("""
                        SELECT seq, audit_id, previous_hash, hash FROM claimguard.audit_seal
                        WHERE audit_id = ANY (?) ORDER BY seq""")) {
            query.setArray(1, connection.createArrayOf("bigint", auditIds.toArray()));
            List<StoredSeal> seals = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    seals.add(new StoredSeal(rs.getLong(1), rs.getLong(2), rs.getBytes(3), rs.getBytes(4)));
                }
            }
            return seals;
        }
    }

    private static byte[] chainHead() throws SQLException {
        try (Connection connection = database.connect();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT hash FROM claimguard.audit_seal ORDER BY seq DESC LIMIT 1");
                ResultSet rs = query.executeQuery()) {
            return rs.next() ? rs.getBytes(1) : SealHash.GENESIS;
        }
    }

    /** Takes the sealers' lock at session level, as another sealer in the middle of a round holds it. */
    private static void holdSealerLock(Connection connection) throws SQLException {
        callWithLockKey(connection, "SELECT pg_advisory_lock(?)");
    }

    private static void releaseSealerLock(Connection connection) throws SQLException {
        callWithLockKey(connection, "SELECT pg_advisory_unlock(?)");
    }

    private static void callWithLockKey(Connection connection, String sql) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(sql)) {
            lock.setLong(1, AuditSealer.LOCK_KEY);
            lock.executeQuery().close();
        }
    }
}
