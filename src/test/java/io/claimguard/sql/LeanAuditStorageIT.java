package io.claimguard.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.AuditSealer;
import io.claimguard.seal.ChainReport;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * V15 (less disk per audit): rows written before it stay as they were and stay verifiable, values written after it
 * are compressed with lz4, the indexes it drops are gone, and the documented queries that read the audit tables are
 * still served by an index. Each test has a database of its own.
 */
class LeanAuditStorageIT {

    /** Large enough that PostgreSQL compresses it (a row over about 2 kB), as the examples' documents are. */
    private static final String LARGE_DOCUMENT = """
            jsonb_build_object('request_id', ?::text, 'verifier_output', jsonb_build_object(
                'rationale', repeat('checkout p95 rose after the payment-service deploy; ', 120)))""";
    private static final List<String> DROPPED_INDEXES = List.of("verification_audit_audit_idx",
            "verification_audit_received_day_utc_idx", "claim_check_verification_idx", "claim_check_claim_type_idx",
            "finding_code_idx");

    @Test
    @DisplayName("Scenario: Rows written before the lz4 migration keep their values and the chain verifies across it")
    void rowsBeforeAndAfterTheMigration() throws SQLException {
        TestDatabase database = TestDatabase.createSeparate();
        try {
            flyway(database, versionBefore15(database)).migrate();
            AuditSealer sealer = new AuditSealer(database.dataSource(), 50, Duration.ofMinutes(10));
            long before;
            try (Connection sql = database.connect()) {
                before = insertAudit(sql, "req-before");
            }
            sealer.sealAllRows();
            String documentBefore = text(database, "SELECT audit::text FROM claimguard.verification_audit WHERE id = ?",
                    before);

            flyway(database, "latest").migrate();
            long after;
            try (Connection sql = database.connect()) {
                after = insertAudit(sql, "req-after");
            }
            sealer.sealAllRows();

            assertThat(text(database, "SELECT pg_column_compression(audit) FROM claimguard.verification_audit WHERE id = ?",
                    before)).as("a value written before keeps its compression").isEqualTo("pglz");
            assertThat(text(database, "SELECT pg_column_compression(audit) FROM claimguard.verification_audit WHERE id = ?",
                    after)).as("a value written after").isEqualTo("lz4");
            assertThat(text(database, "SELECT audit::text FROM claimguard.verification_audit WHERE id = ?", before))
                    .isEqualTo(documentBefore);
            try (Connection sql = database.connect()) {
                ChainReport report = AuditChainVerifier.verify(sql);
                assertThat(report.intact()).as(String.join("\n", report.lines())).isTrue();
                assertThat(report.verifiedSeals()).isEqualTo(2);
            }
        } finally {
            database.drop();
        }
    }

    @Test
    @DisplayName("Scenario: The large values of the audit tables are stored with lz4, on every partition")
    void largeValuesUseLz4() throws SQLException {
        TestDatabase database = TestDatabase.createSeparate();
        try {
            flyway(database, "latest").migrate();
            try (Connection sql = database.connect(); Statement statement = sql.createStatement();
                    ResultSet rs = statement.executeQuery("""
                            SELECT coalesce(pg_partition_root(c.oid), c.oid)::regclass::text, c.oid::regclass::text,
                                   a.attname, a.attcompression
                            FROM pg_class AS c
                            JOIN pg_attribute AS a ON a.attrelid = c.oid
                            WHERE c.relkind IN ('r', 'p')
                              AND (coalesce(pg_partition_root(c.oid), c.oid)::regclass::text, a.attname) IN (
                                  ('claimguard.verification_audit', 'audit'), ('claimguard.claim_check', 'evidence_refs'),
                                  ('claimguard.dead_letter', 'payload'))""")) {
                List<String> columns = new ArrayList<>();
                while (rs.next()) {
                    columns.add(rs.getString(1) + "." + rs.getString(3));
                    assertThat(rs.getString(4)).as("%s of %s", rs.getString(3), rs.getString(2)).isEqualTo("l");
                }
                assertThat(columns).contains("claimguard.verification_audit.audit",
                        "claimguard.claim_check.evidence_refs", "claimguard.dead_letter.payload");
            }
        } finally {
            database.drop();
        }
    }

    @Test
    @DisplayName("Scenario: Indexes no documented query reads are dropped, and the documented queries still use an index")
    void documentedQueriesStillUseAnIndex() throws SQLException, IOException {
        TestDatabase database = TestDatabase.createSeparate();
        try {
            flyway(database, "latest").migrate();
            try (Connection sql = database.connect(); Statement statement = sql.createStatement()) {
                fill(statement);
                List<String> indexes = new ArrayList<>();
                try (ResultSet rs = statement.executeQuery(
                        "SELECT indexname FROM pg_indexes WHERE schemaname = 'claimguard'")) {
                    while (rs.next()) {
                        indexes.add(rs.getString(1));
                    }
                }
                assertThat(indexes).doesNotContainAnyElementsOf(DROPPED_INDEXES);

                String ofRequest = query("claim_checks_of_request.sql").replace(":'request_id'", "'req-77777'");
                assertThat(plan(sql, ofRequest)).contains("verification_audit_request_id_idx", "claim_check_pkey")
                        .doesNotContain("Seq Scan");
                assertThat(plan(sql, query("overruled_pass_last_24h.sql")))
                        .contains("Index").doesNotContain("Seq Scan on verification_audit");
                assertThat(plan(sql, query("dead_letters_this_week_by_reason.sql")))
                        .contains("dead_letter_received_at_idx").doesNotContain("Seq Scan");
                // the finding rollup trigger's look-up of an input's earlier findings with a code (V13)
                assertThat(plan(sql, """
                        SELECT FROM claimguard.finding AS earlier
                        WHERE earlier.code = 'evidence.unknown_invocation' AND earlier.audit_id = 4242"""))
                        .contains("finding_pkey").doesNotContain("Seq Scan");
            }
        } finally {
            database.drop();
        }
    }

    /** 100,000 audits over a year, two claim checks each, a finding for one in ten, 5,000 dead letters. */
    private static void fill(Statement statement) throws SQLException {
        statement.execute("""
                INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at, model_verdict,
                    effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256)
                SELECT 'req-' || g, 'jms', 'ref-' || g, now() - g * interval '315 seconds', 'PASS',
                       CASE g % 10 WHEN 0 THEN 'REJECT' ELSE 'PASS' END, g % 10 = 0,
                       CASE WHEN g % 10 = 0 THEN ARRAY['gatekeeper.fail'] ELSE ARRAY[]::text[] END,
                       'claim_checks', jsonb_build_object('request_id', 'req-' || g), sha256(g::text::bytea)
                FROM generate_series(1, 100000) AS g""");
        statement.execute("""
                INSERT INTO claimguard.claim_check (audit_id, ordinal, claim_id, claim_text, claim_type, verification,
                    legacy_verification, is_critical, detail, evidence_refs)
                SELECT a.id, o, 'claim-' || o, 'claim text', 'symptom', 'direct_observation', 'direct_evidence', true,
                       'detail', '[]'
                FROM claimguard.verification_audit AS a CROSS JOIN generate_series(0, 1) AS o""");
        statement.execute("""
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail)
                SELECT id, 0, 0, 'evidence.unknown_invocation', 'detail'
                FROM claimguard.verification_audit WHERE id % 10 = 0""");
        statement.execute("""
                INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                    payload_sha256, payload_size, payload_truncated)
                SELECT 'file', 'bad-' || g, now() - g * interval '6300 seconds', 'not_json', 'not JSON',
                       '\\x7b', sha256(g::text::bytea), 1, false
                FROM generate_series(1, 5000) AS g""");
        statement.execute("ANALYZE claimguard.verification_audit, claimguard.claim_check, claimguard.finding,"
                + " claimguard.dead_letter");
    }

    /** A documented query's SQL without its header comment and psql's meta-commands. */
    private static String query(String file) throws IOException {
        StringBuilder sql = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("db", "queries", file))) {
            if (!line.startsWith("--") && !line.startsWith("\\")) {
                sql.append(line).append('\n');
            }
        }
        return sql.toString().trim().replaceFirst(";$", "");
    }

    private static String plan(Connection sql, String query) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Statement statement = sql.createStatement(); ResultSet rs = statement.executeQuery("EXPLAIN " + query)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        System.out.println("-- " + query.lines().findFirst().orElse("") + "\n" + plan);
        return plan.toString();
    }

    /** An audit row as the service writes one, with a document large enough to be compressed. */
    private static long insertAudit(Connection sql, String requestId) throws SQLException {
        try (PreparedStatement insert = sql.prepareStatement("""
                INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at, model_verdict,
                    effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256)
                VALUES (?, 'file', ?, now(), 'PASS', 'PASS', false, ARRAY[]::text[], 'claim_checks', %s,
                        sha256(convert_to(?, 'UTF8')))
                RETURNING id""".formatted(LARGE_DOCUMENT))) {
            insert.setString(1, requestId);
            insert.setString(2, requestId + ".json");
            insert.setString(3, requestId);
            insert.setString(4, requestId);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String text(TestDatabase database, String sql, long id) throws SQLException {
        try (Connection connection = database.connect(); PreparedStatement query = connection.prepareStatement(sql)) {
            query.setLong(1, id);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** The newest migration before V15, whichever that is (V14 converts the audit tables into partitioned ones). */
    private static String versionBefore15(TestDatabase database) {
        MigrationVersion v15 = MigrationVersion.fromVersion("15");
        return Arrays.stream(flyway(database, "latest").info().all()).map(MigrationInfo::getVersion)
                .filter(version -> version.compareTo(v15) < 0).max(Comparator.naturalOrder()).orElseThrow().getVersion();
    }

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure().dataSource(database.dataSource()).schemas("claimguard")
                .locations("classpath:db/migration").target(target).load();
    }
}
