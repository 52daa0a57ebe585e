package io.claimguard.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * V15 (less disk per audit) applied to a database of its own holding 100,000 audits: the indexes it drops are gone,
 * and the documented queries that read the audit tables are still served by an index. The plans are printed for the
 * design.
 */
class LeanAuditStorageIT {

    private static final List<String> DROPPED_INDEXES = List.of("verification_audit_audit_idx",
            "verification_audit_received_day_utc_idx", "claim_check_verification_idx", "claim_check_claim_type_idx");

    @Test
    @DisplayName("Scenario: Indexes no documented query reads are dropped, and the documented queries still use an index")
    void documentedQueriesStillUseAnIndex() throws SQLException, IOException {
        TestDatabase database = TestDatabase.createSeparate();
        try {
            // filled before V15, as a database in service is when it is upgraded
            flyway(database, versionBefore15(database)).migrate();
            try (Connection sql = database.connect(); Statement statement = sql.createStatement()) {
                fill(statement);
                assertThat(indexNames(statement)).containsAll(DROPPED_INDEXES);
            }
            flyway(database, "latest").migrate();
            try (Connection sql = database.connect(); Statement statement = sql.createStatement()) {
                assertThat(indexNames(statement)).doesNotContainAnyElementsOf(DROPPED_INDEXES);

                String ofRequest = query("claim_checks_of_request.sql").replace(":'request_id'", "'req-77777'");
                String ofRequestPlan = plan(sql, ofRequest);
                assertThat(ofRequestPlan).containsPattern("Index Scan using verification_audit_\\w*request_id_idx")
                        .containsPattern("Index Scan using claim_check_\\w*pkey");
                assertThat(seqScansOfRows(ofRequestPlan)).isEmpty();
                String overruledPlan = plan(sql, query("overruled_pass_last_24h.sql"));
                assertThat(overruledPlan).contains("Index");
                assertThat(seqScansOfRows(overruledPlan)).isEmpty();
                String deadLettersPlan = plan(sql, query("dead_letters_this_week_by_reason.sql"));
                assertThat(deadLettersPlan).containsPattern("dead_letter_\\w*received_at_idx");
                assertThat(seqScansOfRows(deadLettersPlan)).isEmpty();
                // the finding rollup trigger's look-up of an input's earlier findings with a code (V13) keeps its index
                String earlierPlan = plan(sql, """
                        SELECT FROM claimguard.finding AS earlier
                        WHERE earlier.code = 'evidence.unknown_invocation' AND earlier.audit_id = 4242""");
                assertThat(earlierPlan).containsPattern("finding_\\w*code\\w*_idx");
                assertThat(seqScansOfRows(earlierPlan)).isEmpty();
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
                INSERT INTO claimguard.claim_check (audit_id, audited_at, ordinal, claim_id, claim_text, claim_type,
                    verification, legacy_verification, is_critical, detail, evidence_refs)
                SELECT a.id, a.audited_at, o, 'claim-' || o, 'claim text', 'symptom', 'direct_observation', 'direct_evidence', true,
                       'detail', '[]'
                FROM claimguard.verification_audit AS a CROSS JOIN generate_series(0, 1) AS o""");
        statement.execute("""
                INSERT INTO claimguard.finding (audit_id, audited_at, ordinal, claim_ordinal, code, detail)
                SELECT id, audited_at, 0, 0, 'evidence.unknown_invocation', 'detail'
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

    /**
     * The plan's sequential scans of partitions that hold rows: a month's partition that is still empty (those made
     * ahead, the default one) is scanned at no cost, which the planner prefers to opening its index.
     */
    private static List<String> seqScansOfRows(String plan) {
        return plan.lines().filter(line -> line.contains("Seq Scan") && !line.contains("(cost=0.00..0.00 ")).toList();
    }

    private static List<String> indexNames(Statement statement) throws SQLException {
        List<String> indexes = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery("SELECT indexname FROM pg_indexes WHERE schemaname = 'claimguard'")) {
            while (rs.next()) {
                indexes.add(rs.getString(1));
            }
        }
        return indexes;
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
