package io.claimguard.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * V14 on a database that has audits, claim checks, findings, seals and dead letters of two months already: they are
 * moved into monthly partitions as they were, every seal stays valid, and the guarantees of the unpartitioned tables
 * hold across partitions.
 */
class PartitionedStorageIT {

    private static final String OCTOBER = "2026-10-15 12:00:00+00";
    private static final String NOVEMBER = "2026-11-20 08:30:00+00";

    private static TestDatabase database;

    @BeforeAll
    static void migrateWithRowsOfTwoMonths() throws SQLException {
        database = TestDatabase.createSeparate();
        flyway("13").migrate();
        try (Connection owner = database.connect()) {
            for (int i = 0; i < 3; i++) {
                insertAsBefore(owner, "oct-" + i, OCTOBER);
                insertAsBefore(owner, "nov-" + i, NOVEMBER);
            }
            sealAsBefore(owner);
            try (Statement sql = owner.createStatement()) {
                sql.execute("""
                        INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                            payload_sha256, payload_size, payload_truncated, recorded_at)
                        VALUES ('file', 'old.json', timestamptz '%s', 'not_json', 'before V14', '\\x00', sha256('\\x00'),
                                1, false, timestamptz '%s')""".formatted(OCTOBER, OCTOBER));
            }
        }
        flyway("latest").migrate();
    }

    @AfterAll
    static void drop() {
        database.drop();
    }

    @Test
    @DisplayName("Scenario: The migration moves every audit row into the partition of its month, and every seal stays valid")
    void rowsMoveToTheirMonthAndSealsStayValid() throws SQLException {
        try (Connection owner = database.connect()) {
            assertThat(strings(owner, """
                    SELECT tableoid::regclass::text || ' ' || count(*) FROM claimguard.verification_audit
                    WHERE audited_at < '2026-12-01' GROUP BY tableoid ORDER BY 1""")).containsExactly(
                    "claimguard.verification_audit_2026_10 3", "claimguard.verification_audit_2026_11 3");
            for (String child : List.of("claim_check", "finding", "audit_seal")) {
                assertThat(strings(owner, "SELECT DISTINCT tableoid::regclass::text FROM claimguard." + child
                        + " WHERE audited_at < '2026-12-01' ORDER BY 1"))
                        .as(child).containsExactly("claimguard." + child + "_2026_10", "claimguard." + child + "_2026_11");
            }
            assertThat(strings(owner, "SELECT tableoid::regclass::text FROM claimguard.dead_letter"))
                    .containsExactly("claimguard.dead_letter_2026_10");
            assertThat(strings(owner, "SELECT count(*)::text FROM claimguard.audit_input_key WHERE audited_at < '2026-12-01'"))
                    .containsExactly("6");
            assertThat(strings(owner, """
                    SELECT count(*)::text FROM claimguard.audit_seal_key k
                    JOIN claimguard.audit_seal s ON s.seq = k.seq AND s.previous_hash = k.previous_hash
                    WHERE s.audited_at < '2026-12-01'""")).containsExactly("6");

            ChainReport report = AuditChainVerifier.verify(owner);
            assertThat(report.intact()).as(report.lines().toString()).isTrue();
            // the six seals made before V14, and those the other tests made since
            assertThat(report.verifiedSeals()).isGreaterThanOrEqualTo(6);
        }
    }

    @Test
    @DisplayName("Scenario: The same input bytes are audited once across partitions")
    void duplicateAcrossPartitionsIsRefused() throws SQLException {
        try (Connection owner = database.connect()) {
            // oct-0's bytes again, dated in another month: refused although its partition holds no such row
            assertThatThrownBy(() -> insert(owner, "oct-0", "now()"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("verification_audit_input_sha256_key");
            // the same delivery's rejection, recorded again in another month
            assertThatThrownBy(() -> execute(owner, """
                    INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                        payload_sha256, payload_size, payload_truncated)
                    VALUES ('file', 'old.json', now(), 'not_json', 'again', '\\x00', sha256('\\x00'), 1, false)"""))
                    .isInstanceOf(SQLException.class).hasMessageContaining("dead_letter_delivery_key");
            // a second successor of a seal, in another partition: the chain cannot fork
            insert(owner, "fork-target", "now()");
            assertThatThrownBy(() -> execute(owner, """
                    INSERT INTO claimguard.audit_seal (audit_id, audited_at, previous_hash, hash)
                    SELECT a.id, a.audited_at, s.previous_hash, sha256('\\x01')
                    FROM claimguard.verification_audit a, claimguard.audit_seal s
                    WHERE a.request_id = 'fork-target' AND s.audit_id = (SELECT id FROM claimguard.verification_audit
                                                                   WHERE request_id = 'oct-0')"""))
                    .isInstanceOf(SQLException.class).hasMessageContaining("audit_seal_previous_hash_key");
        }
    }

    @Test
    @DisplayName("Scenario: A row written after the migration goes to its month's partition, is sealed and rolled up")
    void newRowsArePartitionedSealedAndRolledUp() throws SQLException {
        try (Connection owner = database.connect()) {
            long rolledUpBefore = Long.parseLong(strings(owner,
                    "SELECT coalesce(sum(input_count), 0)::text FROM claimguard.audit_rollup").get(0));
            insert(owner, "after-v14", "now()");
            assertThat(strings(owner, """
                    SELECT tableoid::regclass::text FROM claimguard.verification_audit WHERE request_id = 'after-v14'"""))
                    .singleElement().asString().matches("claimguard\\.verification_audit_\\d{4}_\\d{2}");
            assertThat(Long.parseLong(strings(owner,
                    "SELECT sum(input_count)::text FROM claimguard.audit_rollup").get(0))).isEqualTo(rolledUpBefore + 1);
        }
        try (HikariDataSource writer = database.poolActingAs("claimguard_writer", 1)) {
            new AuditSealer(writer, 10, Duration.ofMinutes(10)).sealAllRows();
            try (Connection connection = writer.getConnection()) {
                assertThat(strings(connection, """
                        SELECT s.tableoid::regclass::text FROM claimguard.audit_seal s
                        JOIN claimguard.verification_audit a ON a.id = s.audit_id WHERE a.request_id = 'after-v14'"""))
                        .singleElement().asString().matches("claimguard\\.audit_seal_\\d{4}_\\d{2}");
                ChainReport report = AuditChainVerifier.verify(connection);
                assertThat(report.intact()).as(report.lines().toString()).isTrue();
                // the runtime role cannot make partitions: only the owner's migrations do
                assertThat(strings(connection, "SELECT has_schema_privilege('claimguard', 'CREATE')::text"))
                        .containsExactly("false");
            }
        }
    }

    private static Flyway flyway(String target) {
        return Flyway.configure().dataSource(database.dataSource()).schemas("claimguard")
                .locations("classpath:db/migration").target(target).load();
    }

    /** As the service wrote an audit row with a claim check and a finding before V14 (no audited_at on the children). */
    private static void insertAsBefore(Connection owner, String requestId, String auditedAt) throws SQLException {
        execute(owner, """
                WITH audit AS (
                    INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at,
                        effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256, audited_at)
                    VALUES ('%1$s', 'file', '%1$s.json', timestamptz '%2$s', 'PASS', false, '{}', 'claim_checks', '{}',
                            sha256('%1$s'::bytea), timestamptz '%2$s')
                    RETURNING id
                ), claims AS (
                    INSERT INTO claimguard.claim_check (audit_id, ordinal, legacy_verification, is_critical, evidence_refs)
                    SELECT id, 0, 'no_evidence', false, '[]' FROM audit
                )
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail)
                SELECT id, 0, 0, 'evidence.unknown_invocation', 'before V14' FROM audit""".formatted(requestId, auditedAt));
    }

    /** Seals every row as the sealer did before V14, with the content query of that time (no audited_at to match). */
    private static void sealAsBefore(Connection owner) throws SQLException {
        String contentBefore = SealHash.CONTENT_COLUMNS.replace(" AND c.audited_at = a.audited_at", "")
                .replace(" AND f.audited_at = a.audited_at", "");
        byte[] previous = SealHash.GENESIS;
        List<Object[]> seals = new ArrayList<>();
        try (Statement query = owner.createStatement();
                ResultSet rs = query.executeQuery("SELECT " + contentBefore + " FROM claimguard.verification_audit AS a ORDER BY a.id")) {
            while (rs.next()) {
                byte[] hash = SealHash.link(previous, SealHash.content(rs));
                seals.add(new Object[] {SealHash.auditId(rs), previous, hash});
                previous = hash;
            }
        }
        try (PreparedStatement insert = owner.prepareStatement(
                "INSERT INTO claimguard.audit_seal (audit_id, previous_hash, hash) VALUES (?, ?, ?)")) {
            for (Object[] seal : seals) {
                insert.setLong(1, (Long) seal[0]);
                insert.setBytes(2, (byte[]) seal[1]);
                insert.setBytes(3, (byte[]) seal[2]);
                insert.executeUpdate();
            }
        }
    }

    private static void insert(Connection owner, String requestId, String auditedAt) throws SQLException {
        execute(owner, """
                INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at, effective_verdict,
                    downgraded, guard_reasons, projection_mode, audit, input_sha256, audited_at)
                VALUES ('%1$s', 'file', '%1$s.json', now(), 'PASS', false, '{}', 'none', '{}', sha256('%1$s'::bytea), %2$s)"""
                .formatted(requestId, auditedAt));
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static List<String> strings(Connection connection, String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
