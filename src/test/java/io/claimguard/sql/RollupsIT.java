package io.claimguard.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rollups of V13 against the audit tables they summarise: rows written before the migration (its backfill) and
 * after it by the runtime role, in statements of one row and of hundreds (audit, claim checks and findings in one
 * statement, as the service writes them), a finding added later to an input that already had its code, and a
 * redelivery that inserts nothing. Every rollup-served view must answer exactly what the scan of the audit tables
 * (the views' definitions before V13) answers.
 */
class RollupsIT {

    /** The views' definitions before V13 (V2, V6), and the overview's hourly charts as they read verification_audit. */
    private static final Map<String, String[]> SCAN_AND_ROLLUP = Map.of(
            "downgrades_per_reason_daily", new String[] {"""
                    SELECT (a.received_at AT TIME ZONE 'UTC')::date, r.reason_code, count(*),
                           count(*) FILTER (WHERE a.downgraded)
                    FROM claimguard.verification_audit AS a
                    CROSS JOIN LATERAL unnest(a.guard_reasons) AS r (reason_code)
                    GROUP BY 1, 2""", "SELECT * FROM claimguard.downgrades_per_reason_daily"},
            "verification_labels_by_claim_type", new String[] {"""
                    SELECT claim_type, verification, legacy_verification, count(*)
                    FROM claimguard.claim_check GROUP BY 1, 2, 3""",
                    "SELECT * FROM claimguard.verification_labels_by_claim_type"},
            "verifier_version_share_daily", new String[] {"""
                    WITH per_day AS (
                        SELECT (received_at AT TIME ZONE 'UTC')::date AS day,
                               count(*) FILTER (WHERE projection_mode IN ('claim_checks', 'claim_checks_replaced')) AS v2,
                               count(*) FILTER (WHERE projection_mode = 'legacy') AS v1,
                               count(*) FILTER (WHERE projection_mode = 'none') AS none, count(*) AS total
                        FROM claimguard.verification_audit GROUP BY 1)
                    SELECT day, v2, v1, none, total, round(v2::numeric / total, 4) FROM per_day""",
                    "SELECT * FROM claimguard.verifier_version_share_daily"},
            "findings_per_code_daily", new String[] {"""
                    SELECT (a.received_at AT TIME ZONE 'UTC')::date, f.code, count(*), count(DISTINCT a.id)
                    FROM claimguard.finding AS f JOIN claimguard.verification_audit AS a ON a.id = f.audit_id
                    GROUP BY 1, 2""", "SELECT * FROM claimguard.findings_per_code_daily"},
            "findings_under_pass", new String[] {"""
                    SELECT a.id, a.request_id, a.received_at, a.model_verdict, count(*),
                           array_agg(DISTINCT f.code ORDER BY f.code)
                    FROM claimguard.verification_audit AS a JOIN claimguard.finding AS f ON f.audit_id = a.id
                    WHERE a.effective_verdict = 'PASS'
                    GROUP BY a.id, a.request_id, a.received_at, a.model_verdict""",
                    "SELECT * FROM claimguard.findings_under_pass"},
            "inputs per hour", new String[] {"""
                    SELECT date_trunc('hour', received_at AT TIME ZONE 'UTC'), source, projection_mode,
                           effective_verdict, downgraded, count(*)
                    FROM claimguard.verification_audit GROUP BY 1, 2, 3, 4, 5""", """
                    SELECT received_hour, source, projection_mode, effective_verdict, downgraded, sum(input_count)
                    FROM claimguard.audit_rollup GROUP BY 1, 2, 3, 4, 5"""},
            "guard reasons per hour", new String[] {"""
                    SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC'), r.code, a.downgraded, count(*)
                    FROM claimguard.verification_audit AS a CROSS JOIN LATERAL unnest(a.guard_reasons) AS r (code)
                    GROUP BY 1, 2, 3""", """
                    SELECT received_hour, reason_code, downgraded, sum(input_count)
                    FROM claimguard.guard_reason_rollup GROUP BY 1, 2, 3"""},
            "claim labels per hour (V20)", new String[] {"""
                    SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC'), c.verification, c.legacy_verification,
                           count(*), count(DISTINCT c.audit_id)
                    FROM claimguard.claim_check AS c JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
                    GROUP BY 1, 2, 3""", """
                    SELECT received_hour, verification, legacy_verification, sum(claim_count), sum(input_count)
                    FROM claimguard.claim_label_rollup GROUP BY 1, 2, 3"""});

    private static TestDatabase database;

    @BeforeAll
    static void writeRowsBeforeAndAfterTheRollups() throws SQLException {
        database = TestDatabase.createSeparate();
        flyway("12").migrate();
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            sql.execute(batchBeforePartitions(0, 300));
        }
        flyway(null).migrate();
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            sql.execute("SET ROLE claimguard_writer");
            sql.execute(batch(300, 700));
            for (int first = 700; first < 720; first++) {
                sql.execute(batch(first, first + 1));
            }
            // a redelivery: the same bytes, nothing inserted, nothing counted
            sql.execute(batch(700, 701).replace("AS g\n", "AS g WHERE NOT EXISTS (SELECT FROM claimguard.audit_input_key AS k"
                    + " WHERE k.input_sha256 = sha256(('input-' || g)::bytea))\n"));
            // a finding added on its own to inputs that already had its code, and to some that had none
            sql.execute("""
                    INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                    SELECT a.id, 10, NULL, CASE WHEN a.id % 2 = 0 THEN 'evidence.unknown_invocation'
                                                ELSE 'consistency.late' END, 'added later', a.audited_at
                    FROM claimguard.verification_audit AS a WHERE a.id % 5 = 0""");
            // a claim check added on its own to inputs that may already have its labels: each input counts once
            sql.execute("""
                    INSERT INTO claimguard.claim_check (audit_id, ordinal, verification, legacy_verification, is_critical,
                        evidence_refs, audited_at)
                    SELECT a.id, 50, 'direct_observation', 'direct_evidence', false, '[]', a.audited_at
                    FROM claimguard.verification_audit AS a WHERE a.id % 5 = 0""");
        }
    }

    @AfterAll
    static void dropDatabase() {
        database.drop();
    }

    @Test
    @DisplayName("Scenario: Rollup-served views answer what the scan of the audit tables answers")
    void rollupServedViewsAnswerAsTheScan() throws SQLException {
        try (Connection connection = database.connect()) {
            for (Map.Entry<String, String[]> view : SCAN_AND_ROLLUP.entrySet()) {
                List<String> scan = rows(connection, view.getValue()[0]);
                assertThat(scan).as(view.getKey()).hasSizeGreaterThan(3);
                assertThat(rows(connection, view.getValue()[1])).as(view.getKey())
                        .containsExactlyInAnyOrderElementsOf(scan);
            }
        }
    }

    @Test
    @DisplayName("Scenario: The runtime role keeps the rollups without any privilege on them")
    void runtimeRoleHasNoPrivilegeOnTheRollups() throws SQLException {
        try (Connection connection = database.connect(); Statement sql = connection.createStatement();
                ResultSet rs = sql.executeQuery("""
                        SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = 'claimguard' AND c.relname LIKE '%\\_rollup'
                          AND (has_table_privilege('claimguard_writer', c.oid, 'INSERT')
                               OR has_table_privilege('claimguard_writer', c.oid, 'UPDATE')
                               OR has_table_privilege('claimguard_writer', c.oid, 'DELETE')
                               OR has_table_privilege('claimguard_writer', c.oid, 'TRUNCATE'))""")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    @Test
    @DisplayName("Scenario: Compaction merges each group's deltas into one row and changes no answer")
    void compactionMergesDeltasAndChangesNoAnswer() throws SQLException {
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            Map<String, List<String>> before = answers(connection);
            assertThat(crowdedGroups(connection)).as("groups holding several deltas before compaction").isPositive();
            sql.execute("SET ROLE claimguard_writer");
            long merged;
            try (ResultSet rs = sql.executeQuery("SELECT claimguard.compact_rollups('-infinity')")) {
                rs.next();
                merged = rs.getLong(1);
            }
            sql.execute("RESET ROLE");
            assertThat(merged).as("rows fewer").isPositive();
            assertThat(crowdedGroups(connection)).as("groups holding several deltas after compaction").isZero();
            assertThat(answers(connection)).isEqualTo(before);

            // what is written after the compaction rolls up onto the compacted rows
            sql.execute("SET ROLE claimguard_writer");
            sql.execute(batch(720, 760));
            sql.execute("RESET ROLE");
            for (Map.Entry<String, String[]> view : SCAN_AND_ROLLUP.entrySet()) {
                assertThat(rows(connection, view.getValue()[1])).as(view.getKey())
                        .containsExactlyInAnyOrderElementsOf(rows(connection, view.getValue()[0]));
            }
        }
    }

    @Test
    @DisplayName("Scenario: Only the runtime role may compact, and only through the function")
    void onlyTheRuntimeRoleMayCompact() throws SQLException {
        try (Connection connection = database.connect(); Statement sql = connection.createStatement();
                ResultSet rs = sql.executeQuery("""
                        SELECT has_function_privilege('claimguard_writer', p.oid, 'EXECUTE'),
                               p.proacl IS NOT NULL
                                   AND NOT EXISTS (SELECT FROM aclexplode(p.proacl) AS a WHERE a.grantee = 0),
                               p.prosecdef
                        FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
                        WHERE n.nspname = 'claimguard' AND p.proname = 'compact_rollups'""")) {
            assertThat(rs.next()).as("claimguard.compact_rollups exists").isTrue();
            assertThat(rs.getBoolean(1)).as("claimguard_writer may execute it").isTrue();
            assertThat(rs.getBoolean(2)).as("PUBLIC may not execute it").isTrue();
            assertThat(rs.getBoolean(3)).as("it runs as its owner").isTrue();
        }
        runtimeRoleHasNoPrivilegeOnTheRollups();
    }

    /** Groups of the five compacted rollups that hold more than one row. */
    private static long crowdedGroups(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery("""
                SELECT (SELECT count(*) FROM (SELECT FROM claimguard.audit_rollup
                                              GROUP BY received_hour, source, projection_mode, effective_verdict, downgraded
                                              HAVING count(*) > 1) AS g)
                     + (SELECT count(*) FROM (SELECT FROM claimguard.guard_reason_rollup
                                              GROUP BY received_hour, reason_code, downgraded HAVING count(*) > 1) AS g)
                     + (SELECT count(*) FROM (SELECT FROM claimguard.claim_check_rollup
                                              GROUP BY received_day, claim_type, verification, legacy_verification
                                              HAVING count(*) > 1) AS g)
                     + (SELECT count(*) FROM (SELECT FROM claimguard.finding_rollup
                                              GROUP BY received_day, code HAVING count(*) > 1) AS g)
                     + (SELECT count(*) FROM (SELECT FROM claimguard.claim_label_rollup
                                              GROUP BY received_hour, verification, legacy_verification
                                              HAVING count(*) > 1) AS g)""")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** What each view and rollup sum answers, sorted. */
    private static Map<String, List<String>> answers(Connection connection) throws SQLException {
        Map<String, List<String>> answers = new TreeMap<>();
        for (Map.Entry<String, String[]> view : SCAN_AND_ROLLUP.entrySet()) {
            List<String> rows = rows(connection, view.getValue()[1]);
            rows.sort(null);
            answers.put(view.getKey(), rows);
        }
        return answers;
    }

    /** Audits first to last - 1 in one statement, with claim checks and findings, as the service writes a batch. */
    /** A batch as written before V14: the claim checks and findings without their audit's audited_at. */
    private static String batchBeforePartitions(int first, int last) {
        return batch(first, last).replace("RETURNING id, audited_at", "RETURNING id")
                .replaceAll(",\\s*audited_at\\)", ")").replaceAll(",\\s*audited_at(?=\\s*FROM)", "");
    }

    private static String batch(int first, int last) {
        return """
                WITH audit AS (
                    INSERT INTO claimguard.verification_audit (
                        request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                        guard_reasons, projection_mode, audit, input_sha256)
                    SELECT 'req-' || g, (ARRAY['file', 'jms', 'kafka'])[g %% 3 + 1], 'ref-' || g,
                           timestamptz '2026-11-30 22:00:00+00' + (g * 7919 %% 9000) * interval '1 minute',
                           (ARRAY['PASS', 'LOW_CONFID', 'REJECT', NULL])[g %% 4 + 1],
                           (ARRAY['PASS', 'PASS', 'LOW_CONFID', 'REJECT'])[g %% 4 + 1], g %% 4 >= 2,
                           CASE g %% 7 %% 4 WHEN 0 THEN ARRAY[]::text[] WHEN 1 THEN ARRAY['gatekeeper.fail']
                                WHEN 2 THEN ARRAY['gatekeeper.fail', 'parse_status.not_ok'] ELSE ARRAY['verdict.invalid'] END,
                           (ARRAY['claim_checks', 'claim_checks_replaced', 'legacy', 'none'])[g %% 5 %% 4 + 1],
                           '{}', sha256(('input-' || g)::bytea)
                    FROM generate_series(%d, %d) AS g
                    RETURNING id, audited_at
                ), claims AS (
                    INSERT INTO claimguard.claim_check (
                        audit_id, ordinal, claim_type, verification, legacy_verification, is_critical, evidence_refs,
                        audited_at)
                    SELECT id, o, (ARRAY['root_cause', 'impact', NULL])[(id + o) %% 3 + 1],
                           (ARRAY['direct_observation', 'unsupported', NULL, 'ODD'])[(id * 3 + o) %% 4 + 1],
                           (ARRAY['direct_evidence', 'no_evidence', 'no_evidence', 'indirect_support'])[(id * 3 + o) %% 4 + 1],
                           false, '[]', audited_at
                    FROM audit CROSS JOIN generate_series(0, (id %% 4)::int) AS o
                    RETURNING audit_id
                )
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                SELECT id, o, NULL, (ARRAY['evidence.unknown_invocation', 'evidence.tool_mismatch'])[(id + o / 2) %% 2 + 1], 'd',
                       audited_at
                FROM audit CROSS JOIN generate_series(0, (id %% 3)::int - 1) AS o
                """.formatted(first, last - 1);
    }

    private static List<String> rows(Connection connection, String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int c = 1; c <= columns; c++) {
                    row.append(rs.getString(c)).append('|');
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static Flyway flyway(String target) {
        var configuration = Flyway.configure().dataSource(database.dataSource()).schemas("claimguard")
                .locations("classpath:db/migration");
        if (target != null) {
            configuration.target(target);
        }
        return configuration.load();
    }
}
