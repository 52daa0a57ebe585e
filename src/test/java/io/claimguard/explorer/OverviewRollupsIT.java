package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.TestDatabase;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The overview's queries read the rollups of V13, never the audit rows, and answer what the scans of the audit rows
 * they replaced answered (the queries before V13, kept here as the reference).
 */
class OverviewRollupsIT {

    private static final LocalDateTime FIRST_HOUR = LocalDateTime.of(2026, 12, 1, 5, 0);

    private static TestDatabase database;
    private static JdbcTemplate sql;

    @BeforeAll
    static void auditInputsAsTheRuntimeRole() throws SQLException {
        database = TestDatabase.createSeparate();
        Flyway.configure().dataSource(database.dataSource()).schemas("claimguard").locations("classpath:db/migration")
                .load().migrate();
        sql = new JdbcTemplate(database.dataSource());
        // several statements as the service's role: the rollups hold several deltas per group
        JdbcTemplate writer = new JdbcTemplate(new SingleConnectionDataSource(database.connect(), true));
        writer.execute("SET ROLE claimguard_writer");
        for (int first = 0; first < 400; first += 50) {
            writer.update("""
                    WITH audit AS (
                        INSERT INTO claimguard.verification_audit (
                            request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                            guard_reasons, projection_mode, audit, input_sha256)
                        SELECT 'req-' || g, 'file', 'ref-' || g,
                               timestamptz '2026-11-30 20:00:00+00' + (g * 7919 % 3000) * interval '1 minute',
                               'PASS', (ARRAY['PASS', 'LOW_CONFID', 'REJECT'])[g % 3 + 1], g % 3 > 0,
                               CASE g % 4 WHEN 0 THEN ARRAY[]::text[] WHEN 1 THEN ARRAY['gatekeeper.fail']
                                    WHEN 2 THEN ARRAY['gatekeeper.fail', 'parse_status.not_ok']
                                    ELSE ARRAY['verdict.invalid'] END,
                               (ARRAY['claim_checks', 'legacy', 'none'])[g % 5 % 3 + 1], '{}', sha256(('in-' || g)::bytea)
                        FROM generate_series(?, ?) AS g
                        RETURNING id, audited_at
                    )
                    INSERT INTO claimguard.claim_check (
                        audit_id, ordinal, claim_type, verification, legacy_verification, is_critical, evidence_refs,
                        audited_at)
                    SELECT id, o, 'root_cause', (ARRAY['direct_observation', 'unsupported', NULL])[(id + o) % 3 + 1],
                           (ARRAY['direct_evidence', 'no_evidence', 'no_evidence'])[(id + o) % 3 + 1], false, '[]',
                           audited_at
                    FROM audit CROSS JOIN generate_series(0, (id % 3)::int) AS o""", first, first + 49);
        }
    }

    @AfterAll
    static void dropDatabase() {
        database.drop();
    }

    @Test
    @DisplayName("Scenario: The overview is drawn from rollups, with the counts of the audit rows")
    void overviewIsDrawnFromRollups() {
        Map<String, List<String>> scans = Map.of(
                OverviewReader.INPUTS, rows("""
                        SELECT date_trunc('hour', received_at AT TIME ZONE 'UTC') AS hour, downgraded, projection_mode,
                               count(*)
                        FROM claimguard.verification_audit
                        WHERE received_at >= ?::timestamp AT TIME ZONE 'UTC'
                        GROUP BY 1, 2, 3""", FIRST_HOUR),
                OverviewReader.REASONS, rows("""
                        SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC') AS hour, r.code, count(*)
                        FROM claimguard.verification_audit AS a
                        CROSS JOIN LATERAL unnest(a.guard_reasons) AS r (code)
                        WHERE a.received_at >= ?::timestamp AT TIME ZONE 'UTC' AND a.downgraded
                        GROUP BY 1, 2""", FIRST_HOUR),
                OverviewReader.LABELS, rows("""
                        SELECT coalesce(c.verification, '(none)'), c.legacy_verification, count(*), count(DISTINCT c.audit_id)
                        FROM claimguard.claim_check AS c JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
                        WHERE a.received_at >= ?::timestamp AT TIME ZONE 'UTC'
                        GROUP BY 1, 2 ORDER BY 1, 2""", FIRST_HOUR));
        for (Map.Entry<String, List<String>> scan : scans.entrySet()) {
            assertThat(scan.getValue()).as(scan.getKey()).hasSizeGreaterThan(1);
            assertThat(rows(scan.getKey(), FIRST_HOUR)).as(scan.getKey()).containsExactlyInAnyOrderElementsOf(scan.getValue());
            assertThat(rows("EXPLAIN " + scan.getKey(), FIRST_HOUR)).as(scan.getKey())
                    .noneMatch(line -> line.contains("verification_audit") || line.contains("claim_check ")
                            || line.contains("claim_check_") && !line.contains("claim_check_rollup"));
        }
    }

    private static List<String> rows(String query, Object... parameters) {
        return sql.query(query, (rs, n) -> {
            StringBuilder row = new StringBuilder();
            for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
                row.append(rs.getString(c)).append('|');
            }
            return row.toString();
        }, parameters);
    }
}
