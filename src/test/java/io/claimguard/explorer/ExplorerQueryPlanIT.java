package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The explorer's list queries on 200,000 audit rows (one in a hundred with a finding) and 50,000 dead letters (a database of its own, filled with
 * generate_series): every filter the list page offers is served by an index, newest first, never by a sequential
 * scan of the table; an audit page's claim checks and findings are a range of their primary key, taken in its order.
 * The plans are printed for the design documents.
 */
class ExplorerQueryPlanIT {

    private static final int AUDIT_ROWS = 200_000;
    private static final int DEAD_LETTERS = 50_000;
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final int LARGE_AUDIT = 1_000;
    private static final int LARGE_AUDIT_CLAIMS = 20_000;

    private static TestDatabase database;

    @BeforeAll
    static void fill() throws SQLException {
        database = TestDatabase.createSeparate();
        Flyway.configure().dataSource(database.dataSource()).schemas("claimguard").locations("classpath:db/migration")
                .load().migrate();
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            // one row a second going back from now: 10% REJECT (gatekeeper.fail), 10% LOW_CONFID, 2% verdict.invalid
            sql.execute("""
                    INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at, model_verdict,
                        effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256)
                    SELECT 'req-' || g, (ARRAY['jms', 'file', 'kafka'])[g %% 3 + 1], 'ref-' || g,
                           timestamptz '%s' - g * interval '1 second', 'PASS',
                           CASE g %% 10 WHEN 0 THEN 'REJECT' WHEN 1 THEN 'LOW_CONFID' ELSE 'PASS' END,
                           g %% 10 < 2,
                           CASE WHEN g %% 10 = 0 THEN ARRAY['gatekeeper.fail']
                                WHEN g %% 50 = 1 THEN ARRAY['verdict.invalid'] ELSE ARRAY[]::text[] END,
                           'claim_checks', jsonb_build_object('request_id', 'req-' || g, 'verifier_output',
                               jsonb_build_object('rationale', CASE WHEN g %% 50000 = 3 THEN 'a rare zebra' ELSE 'grounded' END)),
                           sha256(g::text::bytea)
                    FROM generate_series(1, %d) AS g
                    """.formatted(NOW, AUDIT_ROWS));
            sql.execute("""
                    INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                        payload_sha256, payload_size, payload_truncated)
                    SELECT (ARRAY['jms', 'file', 'kafka'])[g %% 3 + 1], 'ref-' || g, timestamptz '%s' - g * interval '4 seconds',
                           (ARRAY['not_json', 'not_utf8', 'request_id.invalid', 'processing_failed'])[g %% 4 + 1],
                           'reason ' || g, convert_to('payload ' || g, 'UTF8'), sha256(g::text::bytea),
                           octet_length(convert_to('payload ' || g, 'UTF8')), false
                    FROM generate_series(1, %d) AS g
                    """.formatted(NOW, DEAD_LETTERS));
            // one audit of 20,000 claim checks and 2,000 findings among 199,999 of ten claim checks each
            sql.execute("""
                    INSERT INTO claimguard.claim_check (audit_id, ordinal, claim_id, claim_text, claim_type, verification,
                        legacy_verification, is_critical, detail, evidence_refs, audited_at)
                    SELECT a.id, o, 'claim-' || o, CASE WHEN a.id %% 40000 = 11 AND o = 0 THEN 'an okapi was seen'
                                                        ELSE 'claim text ' || a.id || '/' || o END, 'symptom', 'direct_observation',
                           'direct_evidence', true, 'detail', '[{"trace_ref": "trace-1"}]', a.audited_at
                    FROM claimguard.verification_audit AS a
                    CROSS JOIN LATERAL generate_series(0, CASE WHEN a.id = %d THEN %d ELSE 9 END) AS o
                    """.formatted(LARGE_AUDIT, LARGE_AUDIT_CLAIMS - 1));
            sql.execute("""
                    INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                    SELECT a.id, o, o * 10 + 9, 'evidence.unknown_invocation', 'detail ' || o, a.audited_at
                    FROM claimguard.verification_audit AS a CROSS JOIN generate_series(0, %d) AS o WHERE a.id = %d
                    """.formatted(LARGE_AUDIT_CLAIMS / 10 - 1, LARGE_AUDIT));
            // and one finding on every hundredth audit, a rare one on three
            sql.execute("""
                    INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                    SELECT a.id, 0, 0, 'evidence.tool_mismatch', 'detail', a.audited_at
                    FROM claimguard.verification_audit AS a WHERE a.id % 100 = 7
                    """);
            sql.execute("""
                    INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                    SELECT a.id, 0, 0, 'consistency.claim_not_checked', 'detail', a.audited_at
                    FROM claimguard.verification_audit AS a WHERE a.id IN (5, 100005, 199995)
                    """);
            sql.execute("ANALYZE claimguard.verification_audit");
            sql.execute("ANALYZE claimguard.dead_letter");
            sql.execute("ANALYZE claimguard.claim_check");
            sql.execute("ANALYZE claimguard.finding");
        }
    }

    @AfterAll
    static void drop() {
        if (database != null) {
            database.drop();
        }
    }

    @Test
    @DisplayName("Scenario: The list query is served by an index on a table of 200,000 rows")
    void listUsesIndexes() throws SQLException {
        AuditFilter.Keyset middle = new AuditFilter.Keyset(NOW.minusSeconds(AUDIT_ROWS / 2), AUDIT_ROWS / 2);
        Map<String, AuditFilter> filters = new LinkedHashMap<>();
        filters.put("first page", new AuditFilter(null, null, null, null, null, null, null, null, null));
        filters.put("a page deep in the table", new AuditFilter(null, null, null, null, null, null, null, null, middle));
        filters.put("effective verdict", new AuditFilter(null, null, "REJECT", null, null, null, null, null, null));
        filters.put("effective verdict, page deep in", new AuditFilter(null, null, "LOW_CONFID", null, null, null, null, null, middle));
        filters.put("downgraded and a reason", new AuditFilter(null, null, null, true, List.of("gatekeeper.fail"), null, null, null, null));
        filters.put("a rare reason", new AuditFilter(null, null, null, null, List.of("verdict.invalid"), null, null, null, null));
        filters.put("a reason nobody has", new AuditFilter(null, null, null, null, List.of("no.such.reason"), null, null, null, null));
        filters.put("one hour, a day ago", new AuditFilter(NOW.minusSeconds(90_000), NOW.minusSeconds(86_400), null, null,
                null, null, null, null, null));
        filters.put("source", new AuditFilter(null, null, null, null, null, null, null, "kafka", null));
        filters.put("everything at once", new AuditFilter(NOW.minusSeconds(172_800), NOW, "REJECT", true,
                List.of("gatekeeper.fail"), null, null, "jms", middle));
        filters.put("a reason prefix (gatekeeper)", new AuditFilter(null, null, null, null,
                Codes.matching("gatekeeper", Codes.GUARD_REASONS), null, null, null, null));
        filters.put("a rare finding code", new AuditFilter(null, null, null, null, null,
                List.of("consistency.claim_not_checked"), null, null, null));
        filters.put("a finding prefix (evidence.)", new AuditFilter(null, null, null, null, null,
                Codes.matching("evidence.", Codes.FINDINGS), null, null, null));
        filters.put("has findings", new AuditFilter(null, null, null, null, null, null, true, null, null));
        filters.put("no findings, page deep in", new AuditFilter(null, null, null, null, null, null, false, null, middle));

        try (Connection connection = database.connect()) {
            for (Map.Entry<String, AuditFilter> filter : filters.entrySet()) {
                AuditFilter.Where where = filter.getValue().where();
                List<Object> parameters = new ArrayList<>(where.parameters());
                parameters.add(51);
                String plan = explain(connection, AuditReader.listQuery(filter.getValue()), parameters);
                System.out.println("-- list of audits, " + filter.getKey() + ":\n" + plan);
                // the empty partitions (months ahead, the default) may be read by a scan of nothing
                assertThat(plan).as(filter.getKey() + ":\n" + plan).contains("Index")
                        .doesNotContain("Seq Scan on " + partitionOf(connection, "verification_audit") + " ");
            }
            AuditFilter.Where deadLetters = new AuditFilter.Conditions().when("not_json", "reason_code = ?", "not_json")
                    .before(new AuditFilter.Keyset(NOW.minusSeconds(DEAD_LETTERS * 2L), DEAD_LETTERS / 2)).build();
            List<Object> parameters = new ArrayList<>(deadLetters.parameters());
            parameters.add(51);
            String plan = explain(connection, AuditReader.deadLetterListQuery(deadLetters), parameters);
            System.out.println("-- dead letters, a reason, a page deep in:\n" + plan);
            assertThat(plan).as(plan).contains("Index")
                    .doesNotContain("Seq Scan on " + partitionOf(connection, "dead_letter") + " ");
        }
    }

    @Test
    void aSourceListIsBoundedByTheHoursTheRollupCountsItIn() throws SQLException {
        // three rows of a source no other row has, hours apart; the rest of the table is jms, file and kafka
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            sql.execute("""
                    INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at, model_verdict,
                        effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256)
                    SELECT 'amqp-' || g, 'amqp', 'amqp-' || g, timestamptz '%s' - g * interval '7 hours', 'PASS', 'PASS',
                           false, ARRAY[]::text[], 'claim_checks', '{}', sha256(('amqp-' || g)::bytea)
                    FROM generate_series(1, 3) AS g
                    """.formatted(NOW));
        }
        AuditReader reader = new AuditReader(new JdbcTemplate(database.dataSource()));

        AuditReader.Page<AuditReader.AuditRow> first = reader.audits(source("amqp", null), 2);
        AuditReader.Page<AuditReader.AuditRow> second = reader.audits(source("amqp", first.next()), 2);

        assertThat(first.rows()).extracting(AuditReader.AuditRow::requestId).containsExactly("amqp-1", "amqp-2");
        assertThat(second.rows()).extracting(AuditReader.AuditRow::requestId).containsExactly("amqp-3");
        assertThat(second.next()).isNull();
        assertThat(reader.audits(source("amqp", null).from(NOW.minusSeconds(15 * 3600)), 5).rows())
                .extracting(AuditReader.AuditRow::requestId).containsExactly("amqp-1", "amqp-2");
        assertThat(reader.audits(source("no-such-source", null), 50).rows()).isEmpty();
        // the rollup counts the source's rows, the reason narrows them to none: its guess is checked, not trusted
        assertThat(reader.audits(new AuditFilter(null, null, null, null, List.of("gatekeeper.fail"), null, null, "amqp",
                null), 2).rows()).isEmpty();
        AuditReader.Page<AuditReader.AuditRow> kafka = reader.audits(source("kafka", null), 50);
        assertThat(kafka.rows()).hasSize(50).allSatisfy(row -> assertThat(row.source()).isEqualTo("kafka"));
        assertThat(kafka.rows().get(0).receivedAt()).isAfterOrEqualTo(NOW.minusSeconds(3));
    }

    private static AuditFilter source(String source, AuditFilter.Keyset before) {
        return new AuditFilter(null, null, null, null, null, null, null, source, before);
    }

    @Test
    void auditPageRowsAreARangeOfThePrimaryKey() throws SQLException {
        try (Connection connection = database.connect()) {
            for (Map.Entry<String, String> query : Map.of("claim_check", AuditReader.CLAIM_CHECKS,
                    "finding", AuditReader.FINDINGS).entrySet()) {
                String plan = explain(connection, query.getValue(),
                        List.of(AuditReader.CLIP, (long) LARGE_AUDIT, 1_000, 101));
                System.out.println("-- an audit's " + query.getKey() + " rows from #1000:\n" + plan);
                assertThat(plan).as(plan).contains("Index Scan using " + partitionOf(connection, query.getKey()) + "_pkey")
                        // the partitions' rows merged in ordinal order (Merge Append's "Sort Key"), never sorted
                        .doesNotContain("Seq Scan").doesNotContainPattern("(?m)^\\s*(->\\s+)?Sort \\(");
            }
        }
    }

    @Test
    @DisplayName("Scenario: A request id's story is read through indexes")
    void storyUsesIndexes() throws SQLException {
        try (Connection connection = database.connect()) {
            String audits = explain(connection, AuditReader.STORY_AUDITS, List.of("req-1000", "req-1000", 501));
            System.out.println("-- a request id's audits and re-driven audits:\n" + audits);
            String auditRows = partitionOf(connection, "verification_audit");
            String deadLetterRows = partitionOf(connection, "dead_letter");
            assertThat(audits).as(audits).contains(auditRows + "_request_id_idx")
                    .doesNotContain("Seq Scan on " + auditRows + " ").doesNotContain("Seq Scan on " + deadLetterRows + " ");
            String deadLetters = explain(connection, AuditReader.STORY_DEAD_LETTERS, List.of("req-1000", 501));
            System.out.println("-- a request id's dead letters:\n" + deadLetters);
            assertThat(deadLetters).as(deadLetters).doesNotContain("Seq Scan on " + auditRows + " ")
                    .doesNotContain("Seq Scan on " + deadLetterRows + " ");
        }
    }

    @Test
    @DisplayName("Scenario: A search is served by the full-text indexes on a table of 200,000 rows")
    void searchUsesIndexes() throws SQLException {
        Map<String, String> rare = Map.of("a rare word of a rationale", "zebra", "a rare word of a claim", "okapi");
        try (Connection connection = database.connect()) {
            for (Map.Entry<String, String> term : rare.entrySet()) {
                AuditFilter filter = new AuditFilter(null, null, null, null, null, null, null, null, null, term.getValue());
                List<Object> parameters = new ArrayList<>(filter.where().parameters());
                parameters.add(51);
                String plan = explain(connection, AuditReader.listQuery(filter), parameters);
                System.out.println("-- list of audits, search for " + term.getKey() + ":\n" + plan);
                // the partitions' copies of claim_check_text_search_idx and verification_audit_text_search_idx
                String claimRows = partitionOf(connection, "claim_check");
                String auditRows = partitionOf(connection, "verification_audit");
                assertThat(plan).as(plan).containsPattern(claimRows + "_\\w*tsvector\\w*_idx")
                        .containsPattern(auditRows + "_\\w*tsvector\\w*_idx")
                        .doesNotContain("Seq Scan on " + auditRows + " ").doesNotContain("Seq Scan on " + claimRows + " ");
            }
            // a word of every rationale: printed for the design (every row matches, so no index can make it small)
            AuditFilter common = new AuditFilter(null, null, null, null, null, null, null, null, null, "grounded");
            List<Object> parameters = new ArrayList<>(common.where().parameters());
            parameters.add(51);
            System.out.println("-- list of audits, search for a word of every rationale:\n"
                    + explain(connection, AuditReader.listQuery(common), parameters));
        }
    }

    @Test
    @DisplayName("Scenario: The overview's queries for a day, a week and 30 days read a range of the rollups' hour indexes")
    void overviewUsesRollupIndexes() throws SQLException {
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            // a year of hours before the audits above, compacted as the service leaves them (one row per group)
            sql.execute("""
                    INSERT INTO claimguard.audit_rollup
                    SELECT h, (ARRAY['jms', 'file', 'kafka'])[s], 'claim_checks', v, v <> 'PASS', 40
                    FROM generate_series(date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '365 days',
                                         date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '3 days', interval '1 hour') AS h
                    CROSS JOIN generate_series(1, 3) AS s CROSS JOIN unnest(ARRAY['PASS', 'REJECT']) AS v""");
            sql.execute("""
                    INSERT INTO claimguard.guard_reason_rollup
                    SELECT h, r, true, 12
                    FROM generate_series(date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '365 days',
                                         date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '3 days', interval '1 hour') AS h
                    CROSS JOIN unnest(ARRAY['gatekeeper.fail', 'verdict.invalid']) AS r""");
            sql.execute("""
                    INSERT INTO claimguard.claim_label_rollup
                    SELECT h, l, 'direct_evidence', 400, 40
                    FROM generate_series(date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '365 days',
                                         date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '3 days', interval '1 hour') AS h
                    CROSS JOIN unnest(ARRAY['direct_observation', 'inferred', 'unsupported', NULL]) AS l""");
            sql.execute("SELECT claimguard.compact_rollups('-infinity')");
            sql.execute("ANALYZE claimguard.audit_rollup, claimguard.guard_reason_rollup, claimguard.claim_label_rollup");
            LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
            for (OverviewPeriod period : OverviewPeriod.values()) {
                for (String query : OverviewReader.QUERIES) {
                    String plan = explain(connection, query, List.of(period.firstColumn(now)));
                    String rollup = query.replaceAll("(?s).*FROM claimguard\\.(\\w+).*", "$1");
                    System.out.println("-- overview, " + period.words() + ", " + rollup + ":\n" + plan);
                    assertThat(plan).as(plan).contains(rollup + "_hour_idx").doesNotContain("Seq Scan")
                            .doesNotContain("verification_audit").doesNotContain("claim_check ");
                }
            }
        }
    }

    /** EXPLAIN (ANALYZE) of the query with these parameters bound, as the plan's text. */
    private static String explain(Connection connection, String query, List<Object> parameters) throws SQLException {
        try (PreparedStatement explain = connection.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF, BUFFERS OFF) " + query)) {
            for (int i = 0; i < parameters.size(); i++) {
                explain.setObject(i + 1, parameters.get(i));
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = explain.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    /** The monthly partition (V14) that holds the table's rows: they were all written in one month. */
    private static String partitionOf(Connection connection, String table) throws SQLException {
        try (Statement query = connection.createStatement();
                ResultSet rs = query.executeQuery("SELECT DISTINCT tableoid::regclass::text FROM claimguard." + table)) {
            assertThat(rs.next()).isTrue();
            String partition = rs.getString(1).substring("claimguard.".length());
            assertThat(rs.next()).as("rows in one partition").isFalse();
            return partition;
        }
    }
}
