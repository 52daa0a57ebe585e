package io.claimguard.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.audit.Sha256;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The analyst views, the reader role and the documented queries in db/queries, against a database of this class's
 * own (migrated by Flyway) holding a known set of audits, claim checks and dead letters.
 */
class AnalystViewsIT {

    private static final String READER = "claimguard_reader";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final Path QUERIES = Path.of("db", "queries");
    // Reads run in a session 14 hours ahead of UTC: the views' days must be UTC days whatever the analyst's zone.
    private static final String ANALYST_TIME_ZONE = "Pacific/Kiritimati";

    // Two days long past, and today: the queries about "today", "the last 24 h" and "this week" see only today's rows.
    private static final LocalDate DAY_1 = LocalDate.of(2025, 3, 10);
    private static final LocalDate DAY_2 = LocalDate.of(2025, 3, 11);
    private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);
    // The start of today is inside today, the last 24 hours and this week, whenever the test runs.
    private static final OffsetDateTime START_OF_TODAY = TODAY.atStartOfDay().atOffset(ZoneOffset.UTC);

    private static final String NO_REFS = "[]";
    private static final String METRICS_AND_LOGS = """
            [{"trace_ref": "trace-1", "tool_name": "query_metrics", "source_invocation_ids": [394], "note": "p99"},
             {"trace_ref": "trace-2", "tool_name": "read_logs", "source_invocation_ids": [395]}]""";
    private static final String METRICS_TWICE = """
            [{"trace_ref": "trace-1", "tool_name": "query_metrics", "source_invocation_ids": [394]},
             {"trace_ref": "trace-3", "tool_name": "query_metrics", "source_invocation_ids": [396]}]""";
    private static final String METRICS = """
            [{"trace_ref": "trace-1", "tool_name": "query_metrics", "source_invocation_ids": [394]}]""";
    private static final String LOGS = """
            [{"trace_ref": "trace-2", "tool_name": "read_logs", "source_invocation_ids": [395]}]""";
    private static final String LOGS_AND_UNNAMED = """
            [{"trace_ref": "trace-2", "tool_name": "read_logs"}, {"trace_ref": "trace-4"}]""";
    private static final String UNNAMED = """
            [{"trace_ref": "trace-9", "source_invocation_ids": [401]}]""";
    private static final String EMPTY_TOOL_NAME = """
            [{"trace_ref": "trace-5", "tool_name": ""}]""";
    // stored as received: a producer sent an object where an array belongs
    private static final String NOT_AN_ARRAY = """
            {"trace_ref": "trace-6", "tool_name": "query_metrics"}""";

    /** A monthly or default partition of an audit table (V14). */
    private static final Pattern PARTITION = Pattern.compile(".+_(\\d{4}_\\d{2}|default)");

    private static TestDatabase database;
    private static long a1;
    private static long a2;
    private static long a2Retry;
    private static long a7;
    private static long a8;

    @BeforeAll
    static void migrateAndInsertKnownRows() throws SQLException {
        database = TestDatabase.createSeparate();
        migrate(database);
        try (Connection connection = database.connect()) {
            connection.setAutoCommit(false);

            a1 = audit(connection, "req-a1", at("2025-03-10T10:00:00Z"), "PASS", "PASS", false, List.of(),
                    "claim_checks");
            claim(connection, a1, 0, "root_cause", "direct_observation", "direct_evidence", METRICS_AND_LOGS);
            claim(connection, a1, 1, "symptom", "reasonable_inference", "indirect_support", METRICS_TWICE);

            // 00:15 at +02:00 is still 2025-03-10 in UTC
            a2 = audit(connection, "req-a2", at("2025-03-11T00:15:00+02:00"), "PASS", "LOW_CONFID", true,
                    List.of("gatekeeper.fail", "claim_checks.unknown_verification"), "claim_checks_replaced");
            claim(connection, a2, 0, "impact", "unsupported", "no_evidence", NO_REFS);
            claim(connection, a2, 1, "context", "DIRECT_OBSERVATION", "no_evidence", UNNAMED);

            // 23:30 at -05:00 is already 2025-03-11 in UTC
            audit(connection, "req-a3", at("2025-03-10T23:30:00-05:00"), "LOW_CONFID", "REJECT", true,
                    List.of("gatekeeper.invocation_ref", "parse_status.not_ok"), "legacy");
            audit(connection, "req-a4", at("2025-03-11T09:00:00Z"), "REJECT", "REJECT", false,
                    List.of("gatekeeper.missing"), "legacy");
            audit(connection, "req-a5", at("2025-03-11T10:00:00Z"), null, "LOW_CONFID", true,
                    List.of("verdict.invalid"), "none");
            long a6 = audit(connection, "req-a6", at("2025-03-11T11:00:00Z"), "LOW_CONFID", "LOW_CONFID", false,
                    List.of("parse_status.not_ok", "claim_checks.unknown_verification"), "claim_checks");
            claim(connection, a6, 0, "risk", "contradicted", "contradicted", NOT_AN_ARRAY);
            claim(connection, a6, 1, null, null, "no_evidence", LOGS_AND_UNNAMED);
            // a second attempt for req-a2: an audit of its own
            a2Retry = audit(connection, "req-a2", at("2025-03-11T12:00:00Z"), "PASS", "PASS", false, List.of(),
                    "claim_checks");
            claim(connection, a2Retry, 0, "impact", "direct_observation", "direct_evidence", METRICS);

            a7 = audit(connection, "req-today-1", START_OF_TODAY, "PASS", "REJECT", true,
                    List.of("gatekeeper.invocation_ref"), "claim_checks");
            claim(connection, a7, 0, "root_cause", "overstated", "indirect_support", LOGS);
            claim(connection, a7, 1, "root_cause", "direct_observation", "direct_evidence", METRICS);
            a8 = audit(connection, "req-today-2", START_OF_TODAY, "PASS", "PASS", false, List.of(),
                    "claim_checks");
            claim(connection, a8, 0, "impact", "external_unknown", "no_evidence", EMPTY_TOOL_NAME);
            audit(connection, "req-today-3", START_OF_TODAY, "REJECT", "REJECT", false, List.of("gatekeeper.fail"),
                    "legacy");

            // findings: two codes under a1's PASS (one twice), one under a2's LOW_CONFID on the same day; one under
            // the retry's PASS the next day; today one under a7's REJECT and one code twice under a8's PASS
            finding(connection, a1, 0, 0, "evidence.unknown_invocation");
            finding(connection, a1, 1, 1, "evidence.unknown_invocation");
            finding(connection, a1, 2, null, "consistency.groundedness_at_odds");
            finding(connection, a2, 0, 0, "evidence.unknown_invocation");
            finding(connection, a2Retry, 0, null, "consistency.claim_not_checked");
            finding(connection, a7, 0, 0, "evidence.dangling_trace_ref");
            finding(connection, a8, 0, 0, "evidence.tool_mismatch");
            finding(connection, a8, 1, 0, "evidence.tool_mismatch");

            deadLetter(connection, "bad-1.json", START_OF_TODAY, "not_json");
            deadLetter(connection, "bad-2.json", START_OF_TODAY, "not_json");
            deadLetter(connection, "bad-3.json", START_OF_TODAY, "request_id.invalid");
            deadLetter(connection, "bad-old.json", at("2025-03-10T08:00:00Z"), "not_json");
            connection.commit();
        }
    }

    // ---- the views

    @Test
    @DisplayName("Scenario: Guard reasons are counted per UTC day, fired and downgraded apart")
    void downgradesPerReasonDaily() throws SQLException {
        List<ReasonCount> rows = query("SELECT day, reason_code, fired_count, downgraded_count "
                + "FROM claimguard.downgrades_per_reason_daily", AnalystViewsIT::reasonCount);

        assertThat(rows).containsExactlyInAnyOrder(
                new ReasonCount(DAY_1, "claim_checks.unknown_verification", 1, 1),
                new ReasonCount(DAY_1, "gatekeeper.fail", 1, 1),
                new ReasonCount(DAY_2, "claim_checks.unknown_verification", 1, 0),
                new ReasonCount(DAY_2, "gatekeeper.invocation_ref", 1, 1),
                new ReasonCount(DAY_2, "gatekeeper.missing", 1, 0),
                new ReasonCount(DAY_2, "parse_status.not_ok", 2, 1),
                new ReasonCount(DAY_2, "verdict.invalid", 1, 1),
                new ReasonCount(TODAY, "gatekeeper.fail", 1, 0),
                new ReasonCount(TODAY, "gatekeeper.invocation_ref", 1, 1));
    }

    @Test
    @DisplayName("Scenario: Filtering one day can use an index")
    void filteringOneDayCanUseAnIndex() throws SQLException {
        try (Connection connection = database.connect()) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                // the fixture is too small for the planner to prefer an index on its own
                statement.execute("SET LOCAL enable_seqscan = off");
                // the daily views sum rollups (V13), each through the index on its day
                for (Map.Entry<String, String> query : Map.of(
                        "EXPLAIN SELECT * FROM claimguard.downgrades_per_reason_daily WHERE day = ?",
                        "guard_reason_rollup_day_idx",
                        "EXPLAIN SELECT * FROM claimguard.verifier_version_share_daily WHERE day = ?", "audit_rollup_day_idx",
                        "EXPLAIN SELECT * FROM claimguard.findings_per_code_daily WHERE day = ?", "finding_rollup_day_idx")
                        .entrySet()) {
                    List<String> plan = new ArrayList<>();
                    try (PreparedStatement explain = connection.prepareStatement(query.getKey())) {
                        explain.setObject(1, TODAY);
                        try (ResultSet rs = explain.executeQuery()) {
                            plan.addAll(readAll(rs, row -> row.getString(1)));
                        }
                    }
                    assertThat(plan).as(query.getKey()).anyMatch(line -> line.contains(query.getValue()))
                            .noneMatch(line -> line.contains("verification_audit") || line.contains("finding "));
                }
            } finally {
                connection.rollback();
            }
        }
    }

    @Test
    @DisplayName("Scenario: Claim checks are counted by claim type, label and legacy label")
    void verificationLabelsByClaimType() throws SQLException {
        List<LabelCount> rows = query("SELECT claim_type, verification, legacy_verification, claim_count "
                + "FROM claimguard.verification_labels_by_claim_type", rs -> new LabelCount(
                        rs.getString("claim_type"), rs.getString("verification"),
                        rs.getString("legacy_verification"), rs.getLong("claim_count")));

        assertThat(rows).containsExactlyInAnyOrder(
                new LabelCount("context", "DIRECT_OBSERVATION", "no_evidence", 1),
                new LabelCount("impact", "direct_observation", "direct_evidence", 1),
                new LabelCount("impact", "external_unknown", "no_evidence", 1),
                new LabelCount("impact", "unsupported", "no_evidence", 1),
                new LabelCount("risk", "contradicted", "contradicted", 1),
                new LabelCount("root_cause", "direct_observation", "direct_evidence", 2),
                new LabelCount("root_cause", "overstated", "indirect_support", 1),
                new LabelCount("symptom", "reasonable_inference", "indirect_support", 1),
                new LabelCount(null, null, "no_evidence", 1));
    }

    @Test
    @DisplayName("Scenario: Claim checks are counted once per distinct cited tool, NULL when they name none")
    void verificationLabelsByTool() throws SQLException {
        List<ToolCount> rows = query("SELECT tool_name, verification, claim_count "
                + "FROM claimguard.verification_labels_by_tool", rs -> new ToolCount(
                        rs.getString("tool_name"), rs.getString("verification"), rs.getLong("claim_count")));

        assertThat(rows).containsExactlyInAnyOrder(
                // req-a1 claim 0 (cites both tools), req-a2 retry, today's claim 1
                new ToolCount("query_metrics", "direct_observation", 3),
                // cites query_metrics twice: counted once
                new ToolCount("query_metrics", "reasonable_inference", 1),
                new ToolCount("read_logs", "direct_observation", 1),
                new ToolCount("read_logs", "overstated", 1),
                // one named and one unnamed ref: only the named tool
                new ToolCount("read_logs", null, 1),
                // no refs / a ref without tool_name / an empty tool_name / evidence_refs not an array
                new ToolCount(null, "unsupported", 1),
                new ToolCount(null, "DIRECT_OBSERVATION", 1),
                new ToolCount(null, "external_unknown", 1),
                new ToolCount(null, "contradicted", 1));
    }

    @Test
    @DisplayName("Scenario: PASS verdicts the guard downgraded are listed with their reasons")
    void guardOverruledPass() throws SQLException {
        List<Overruled> rows = query("SELECT id, request_id, received_at, effective_verdict, guard_reasons "
                + "FROM claimguard.guard_overruled_pass", AnalystViewsIT::overruled);

        assertThat(rows).containsExactlyInAnyOrder(
                new Overruled(a2, "req-a2", at("2025-03-11T00:15:00+02:00").toInstant(), "LOW_CONFID",
                        List.of("gatekeeper.fail", "claim_checks.unknown_verification")),
                new Overruled(a7, "req-today-1", START_OF_TODAY.toInstant(), "REJECT",
                        List.of("gatekeeper.invocation_ref")));
    }

    @Test
    @DisplayName("Scenario: Verifier versions are counted per UTC day with the V2 share")
    void verifierVersionShareDaily() throws SQLException {
        List<VersionShare> rows = query("SELECT day, v2_count, v1_count, none_count, total_count, v2_share "
                + "FROM claimguard.verifier_version_share_daily", rs -> new VersionShare(
                        rs.getObject("day", LocalDate.class), rs.getLong("v2_count"), rs.getLong("v1_count"),
                        rs.getLong("none_count"), rs.getLong("total_count"), rs.getBigDecimal("v2_share")));

        assertThat(rows).containsExactlyInAnyOrder(
                new VersionShare(DAY_1, 2, 0, 0, 2, new BigDecimal("1.0000")),
                new VersionShare(DAY_2, 2, 2, 1, 5, new BigDecimal("0.4000")),
                new VersionShare(TODAY, 2, 1, 0, 3, new BigDecimal("0.6667")));
    }

    @Test
    @DisplayName("Scenario: Findings are counted per UTC day and code, findings and inputs apart")
    void findingsPerCodeDaily() throws SQLException {
        List<List<Object>> rows = query("SELECT day, code, finding_count, input_count "
                + "FROM claimguard.findings_per_code_daily", rs -> List.of(rs.getObject("day", LocalDate.class),
                        rs.getString("code"), rs.getLong("finding_count"), rs.getLong("input_count")));

        assertThat(rows).containsExactlyInAnyOrder(
                List.of(DAY_1, "evidence.unknown_invocation", 3L, 2L),
                List.of(DAY_1, "consistency.groundedness_at_odds", 1L, 1L),
                List.of(DAY_2, "consistency.claim_not_checked", 1L, 1L),
                List.of(TODAY, "evidence.dangling_trace_ref", 1L, 1L),
                List.of(TODAY, "evidence.tool_mismatch", 2L, 1L));
    }

    @Test
    @DisplayName("Scenario: Inputs that passed with findings are listed with their codes")
    void findingsUnderPass() throws SQLException {
        List<List<Object>> rows = query("SELECT id, request_id, model_verdict, finding_count, codes "
                + "FROM claimguard.findings_under_pass", rs -> List.of(rs.getLong("id"), rs.getString("request_id"),
                        rs.getString("model_verdict"), rs.getLong("finding_count"),
                        List.of((String[]) rs.getArray("codes").getArray())));

        assertThat(rows).containsExactlyInAnyOrder(
                List.of(a1, "req-a1", "PASS", 3L, List.of("consistency.groundedness_at_odds", "evidence.unknown_invocation")),
                List.of(a2Retry, "req-a2", "PASS", 1L, List.of("consistency.claim_not_checked")),
                List.of(a8, "req-today-2", "PASS", 2L, List.of("evidence.tool_mismatch")));
    }

    // ---- the reader role

    @Test
    @DisplayName("Scenario: The reader reads every table and view")
    void readerReadsEveryTableAndView() throws SQLException {
        try (Connection connection = database.connect()) {
            List<String[]> relations = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    // format(%I) quotes each name: the only SQL here not written out, and built by the server
                    ResultSet rs = statement.executeQuery("""
                            SELECT c.relname, format('SELECT count(*) FROM %I.%I', n.nspname, c.relname)
                            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                            WHERE n.nspname = 'claimguard' AND c.relkind IN ('r', 'p', 'v', 'm')""")) {
                while (rs.next()) {
                    relations.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
            // the monthly and default partitions (V14) are read through their partitioned table, and each is readable
            assertThat(relations).extracting(relation -> relation[0]).filteredOn(name -> !PARTITION.matcher(name).matches())
                    .containsExactlyInAnyOrder(
                    "flyway_schema_history", "verification_audit", "claim_check", "dead_letter", "audit_seal",
                    "downgrades_per_reason_daily", "verification_labels_by_claim_type",
                    "verification_labels_by_tool", "guard_overruled_pass", "verifier_version_share_daily",
                    "finding", "findings_per_code_daily", "findings_under_pass", "replay_run", "replay_outcome",
                    "kafka_delivery", "chain_verification", "audit_rollup", "guard_reason_rollup", "claim_check_rollup",
                    "finding_rollup", "finding_under_pass_rollup", "claim_label_rollup", "audit_input_key", "dead_letter_key",
                "audit_seal_key", "audit_archive");

            for (String[] relation : relations) {
                long asOwner = count(connection, relation[1]);
                setRole(connection, READER);
                long asReader = count(connection, relation[1]);
                setRole(connection, "none");
                assertThat(asReader).as("rows of %s the reader sees", relation[0]).isEqualTo(asOwner);
            }
        }
    }

    @Test
    @DisplayName("Scenario: The reader cannot change data")
    void readerCannotChangeData() throws SQLException {
        try (Connection connection = database.connect()) {
            setRole(connection, READER);
            // the privilege check comes first: these fail on it, not on a NOT NULL column
            assertInsufficientPrivilege(connection, "INSERT INTO claimguard.verification_audit DEFAULT VALUES");
            assertInsufficientPrivilege(connection, "INSERT INTO claimguard.claim_check DEFAULT VALUES");
            assertInsufficientPrivilege(connection, "INSERT INTO claimguard.dead_letter DEFAULT VALUES");
            assertInsufficientPrivilege(connection, "INSERT INTO claimguard.finding DEFAULT VALUES");
            assertInsufficientPrivilege(connection, "DELETE FROM claimguard.finding WHERE audit_id = ?", a7);
            assertInsufficientPrivilege(connection,
                    "UPDATE claimguard.verification_audit SET effective_verdict = ? WHERE id = ?", "PASS", a7);
            assertInsufficientPrivilege(connection,
                    "UPDATE claimguard.claim_check SET verification = ? WHERE audit_id = ?", "contradicted", a7);
            assertInsufficientPrivilege(connection,
                    "UPDATE claimguard.dead_letter SET reason = ? WHERE reason_code = ?", "fine", "not_json");
            assertInsufficientPrivilege(connection, "DELETE FROM claimguard.claim_check WHERE audit_id = ?", a7);
            assertInsufficientPrivilege(connection, "DELETE FROM claimguard.verification_audit WHERE id = ?", a7);
            assertInsufficientPrivilege(connection, "DELETE FROM claimguard.dead_letter WHERE reason_code = ?",
                    "not_json");
            assertInsufficientPrivilege(connection, "TRUNCATE claimguard.verification_audit, claimguard.claim_check");
            assertInsufficientPrivilege(connection, "TRUNCATE claimguard.dead_letter");
            assertInsufficientPrivilege(connection, "CREATE TABLE claimguard.analyst_scratch (n integer)");
            setRole(connection, "none");
        }
        // nothing changed
        assertThat(query("SELECT effective_verdict FROM claimguard.verification_audit WHERE id = ?",
                rs -> rs.getString(1), a7)).containsExactly("REJECT");
        assertThat(query("SELECT count(*) FROM claimguard.claim_check WHERE audit_id = ?", rs -> rs.getLong(1), a7))
                .containsExactly(2L);
        assertThat(query("SELECT count(*) FROM claimguard.dead_letter", rs -> rs.getLong(1))).containsExactly(4L);
    }

    @Test
    @DisplayName("Scenario: The reader holds SELECT and nothing else")
    void readerHoldsSelectAndNothingElse() throws SQLException {
        List<String[]> grants = query("""
                SELECT c.relname, a.privilege_type
                FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                CROSS JOIN LATERAL aclexplode(c.relacl) a
                WHERE n.nspname = 'claimguard' AND a.grantee = 'claimguard_reader'::regrole""",
                rs -> new String[] {rs.getString(1), rs.getString(2)});
        assertThat(grants).extracting(grant -> grant[1]).containsOnly("SELECT");
        // every table and view (the partitions of V14 too), and no sequence
        assertThat(grants).extracting(grant -> grant[0]).filteredOn(name -> !PARTITION.matcher(name).matches())
                .containsExactlyInAnyOrder(
                "flyway_schema_history", "verification_audit", "claim_check", "dead_letter", "audit_seal",
                "downgrades_per_reason_daily", "verification_labels_by_claim_type",
                "verification_labels_by_tool", "guard_overruled_pass", "verifier_version_share_daily",
                "finding", "findings_per_code_daily", "findings_under_pass", "replay_run", "replay_outcome",
                "kafka_delivery", "chain_verification", "audit_rollup", "guard_reason_rollup", "claim_check_rollup",
                "finding_rollup", "finding_under_pass_rollup", "claim_label_rollup", "audit_input_key", "dead_letter_key",
                "audit_seal_key", "audit_archive");

        List<List<Boolean>> role = query("""
                SELECT has_schema_privilege('claimguard_reader', 'claimguard', 'USAGE'),
                       has_schema_privilege('claimguard_reader', 'claimguard', 'CREATE'),
                       rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls,
                       EXISTS (SELECT FROM pg_auth_members m WHERE m.member = r.oid)
                FROM pg_roles r WHERE rolname = 'claimguard_reader'""",
                rs -> List.of(rs.getBoolean(1), rs.getBoolean(2), rs.getBoolean(3), rs.getBoolean(4),
                        rs.getBoolean(5), rs.getBoolean(6), rs.getBoolean(7), rs.getBoolean(8), rs.getBoolean(9)));
        assertThat(role).containsExactly(List.of(true, false, false, false, false, false, false, false, false));
    }

    @Test
    @DisplayName("Scenario: Tables created by a later migration are readable")
    void laterTablesAreReadable() throws SQLException {
        try (Connection connection = database.connect()) {
            connection.setAutoCommit(false);
            try {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("CREATE TABLE claimguard.later_table (n integer)");
                }
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO claimguard.later_table (n) VALUES (?)")) {
                    insert.setInt(1, 7);
                    insert.executeUpdate();
                }
                setRole(connection, READER);
                try (Statement statement = connection.createStatement();
                        ResultSet rs = statement.executeQuery("SELECT n FROM claimguard.later_table")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(7);
                }
            } finally {
                connection.rollback();
            }
        }
    }

    @Test
    @DisplayName("Scenario: Migrating another database on the same server reuses the role")
    void anotherDatabaseReusesTheRole() throws SQLException {
        // the role exists now (this class's own migration made sure of it), so this takes the "exists" path
        TestDatabase other = TestDatabase.createSeparate();
        migrate(other);

        try (Connection connection = other.connect();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("""
                        SELECT (SELECT count(*) FROM pg_roles WHERE rolname = 'claimguard_reader'),
                               has_table_privilege('claimguard_reader', 'claimguard.verification_audit', 'SELECT'),
                               has_table_privilege('claimguard_reader', 'claimguard.guard_overruled_pass', 'SELECT'),
                               has_table_privilege('claimguard_reader', 'claimguard.verification_audit', 'INSERT')
                        """)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(1);
            assertThat(rs.getBoolean(2)).isTrue();
            assertThat(rs.getBoolean(3)).isTrue();
            assertThat(rs.getBoolean(4)).isFalse();
        }
    }

    // ---- the documented queries in db/queries

    static Stream<String> queryFiles() throws IOException {
        try (Stream<Path> files = Files.list(QUERIES)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".sql"))
                    .sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queryFiles")
    @DisplayName("Scenario: Every example query runs as the reader")
    void everyExampleQueryRunsAsTheReader(String file) throws IOException, SQLException {
        String text = Files.readString(QUERIES.resolve(file));
        assertThat(text).as("header comment of %s", file).startsWith("-- Question: ").contains("-- Run:      psql ");

        List<Integer> columns = runQueryFile(file, Map.of("request_id", "req-a2"), rs -> rs.getMetaData().getColumnCount());
        assertThat(columns).as("rows of %s", file).isNotEmpty();
    }

    @Test
    @DisplayName("Scenario: A query run without its variable says which one it needs")
    void missingVariableIsNamed() throws IOException, InterruptedException {
        Psql withoutVariable = psql("-f", QUERIES.resolve("claim_checks_of_request.sql").toString());
        assertThat(withoutVariable.output()).contains("needs the request id", "-v request_id=").doesNotContain("syntax error");

        Psql withVariable = psql("-v", "request_id=req-a2", "-f", QUERIES.resolve("claim_checks_of_request.sql").toString());
        assertThat(withVariable.exitCode()).isZero();
        assertThat(withVariable.output()).contains("audit_id").containsPattern("\\([1-9][0-9]* rows?\\)").doesNotContain("ERROR");
    }

    /** What psql, the analysts' client, printed (standard output and error together) and its exit status. */
    private record Psql(int exitCode, String output) {
    }

    private static Psql psql(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("psql", "--no-psqlrc", "-h", database.host(),
                "-p", String.valueOf(database.port()), "-U", database.username(), "-d", database.databaseName()));
        command.addAll(Arrays.asList(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", database.password());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Psql(process.waitFor(), output);
    }

    @Test
    @DisplayName("Scenario: Example query for today's findings by code")
    void findingsTodayByCode() throws IOException, SQLException {
        List<List<Object>> rows = runQueryFile("findings_today_by_code.sql", Map.of(),
                rs -> List.of(rs.getString("code"), rs.getLong("input_count"), rs.getLong("finding_count")));

        assertThat(rows).containsExactly(
                List.of("evidence.tool_mismatch", 1L, 2L),
                List.of("evidence.dangling_trace_ref", 1L, 1L));
    }

    @Test
    @DisplayName("Scenario: Example query for today's downgrades by reason")
    void downgradesTodayByReason() throws IOException, SQLException {
        List<List<Object>> rows = runQueryFile("downgrades_today_by_reason.sql", Map.of(),
                rs -> List.of(rs.getString("reason_code"), rs.getLong("fired_count"), rs.getLong("downgraded_count")));

        assertThat(rows).containsExactly(
                List.of("gatekeeper.invocation_ref", 1L, 1L),
                List.of("gatekeeper.fail", 1L, 0L));
    }

    @Test
    @DisplayName("Scenario: Example query for PASS verdicts overruled in the last 24 hours")
    void overruledPassLast24h() throws IOException, SQLException {
        List<List<Object>> rows = runQueryFile("overruled_pass_last_24h.sql", Map.of(),
                rs -> List.of(rs.getLong("audit_id"), rs.getString("request_id"), rs.getString("effective_verdict"),
                        rs.getString("reasons")));

        assertThat(rows).containsExactly(List.of(a7, "req-today-1", "REJECT", "gatekeeper.invocation_ref"));
    }

    @Test
    @DisplayName("Scenario: Example query for the claim checks of one request")
    void claimChecksOfRequest() throws IOException, SQLException {
        List<List<Object>> rows = runQueryFile("claim_checks_of_request.sql", Map.of("request_id", "req-a2"),
                rs -> Arrays.asList(rs.getLong("audit_id"), rs.getInt("ordinal"), rs.getString("claim_id"),
                        rs.getString("verification"), rs.getString("legacy_verification")));

        assertThat(rows).containsExactly(
                Arrays.asList(a2, 0, "claim-0", "unsupported", "no_evidence"),
                Arrays.asList(a2, 1, "claim-1", "DIRECT_OBSERVATION", "no_evidence"),
                Arrays.asList(a2Retry, 0, "claim-0", "direct_observation", "direct_evidence"));
    }

    @Test
    @DisplayName("Scenario: Example query for dead letters this week by reason")
    void deadLettersThisWeekByReason() throws IOException, SQLException {
        List<List<Object>> rows = runQueryFile("dead_letters_this_week_by_reason.sql", Map.of(),
                rs -> List.of(rs.getString("reason_code"), rs.getLong("rejected_count")));

        assertThat(rows).containsExactly(List.of("not_json", 2L), List.of("request_id.invalid", 1L));
    }

    @Test
    @DisplayName("Scenario: Example query for labels per tool")
    void labelsPerTool() throws IOException, SQLException {
        List<List<Object>> rows = runQueryFile("labels_per_tool.sql", Map.of(), rs -> List.of(rs.getString("tool"),
                rs.getLong("claims"), rs.getLong("direct_observation"), rs.getLong("reasonable_inference"),
                rs.getLong("overstated"), rs.getLong("unsupported"), rs.getLong("external_unknown"),
                rs.getLong("contradicted"), rs.getLong("other")));

        assertThat(rows).containsExactly(
                List.of("query_metrics", 4L, 3L, 1L, 0L, 0L, 0L, 0L, 0L),
                List.of("(no tool)", 4L, 0L, 0L, 0L, 1L, 1L, 1L, 1L),
                List.of("read_logs", 3L, 1L, 0L, 1L, 0L, 0L, 0L, 1L));
    }

    // ---- helpers

    private static void migrate(TestDatabase target) {
        Flyway.configure()
                .dataSource(target.dataSource())
                .schemas("claimguard")
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }

    private static OffsetDateTime at(String timestamp) {
        return OffsetDateTime.parse(timestamp);
    }

    private static long audit(Connection connection, String requestId, OffsetDateTime receivedAt,
            String modelVerdict, String effectiveVerdict, boolean downgraded, List<String> guardReasons,
            String projectionMode) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO claimguard.verification_audit (
                    request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                    guard_reasons, projection_mode, groundedness_score, critical_fact_count, audit, input_sha256)
                VALUES (?, 'file', ?, ?, ?, ?, ?, ?, ?, 0.8, 1,
                        jsonb_build_object(
                            'envelope', jsonb_build_object('request_id', ?::text,
                                                           'verifier_output', jsonb_build_object('verdict', ?::text)),
                            'effective_result', jsonb_build_object('request_id', ?::text, 'verdict', ?::text)),
                        ?)
                RETURNING id""")) {
            String sourceRef = requestId + "-" + receivedAt.toInstant().getEpochSecond() + ".json";
            insert.setString(1, requestId);
            insert.setString(2, sourceRef);
            insert.setObject(3, receivedAt);
            insert.setString(4, modelVerdict);
            insert.setString(5, effectiveVerdict);
            insert.setBoolean(6, downgraded);
            insert.setArray(7, connection.createArrayOf("text", guardReasons.toArray()));
            insert.setString(8, projectionMode);
            insert.setString(9, requestId);
            insert.setString(10, modelVerdict);
            insert.setString(11, requestId);
            insert.setString(12, effectiveVerdict);
            insert.setBytes(13, Sha256.of(sourceRef.getBytes(StandardCharsets.UTF_8)));
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void claim(Connection connection, long auditId, int ordinal, String claimType,
            String verification, String legacyVerification, String evidenceRefs) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO claimguard.claim_check (
                    audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                    is_critical, detail, evidence_refs, audited_at)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), a.audited_at
                FROM claimguard.verification_audit AS a WHERE a.id = ?""")) {
            insert.setLong(1, auditId);
            insert.setInt(2, ordinal);
            insert.setString(3, "claim-" + ordinal);
            insert.setString(4, "text of claim " + ordinal);
            insert.setString(5, claimType);
            insert.setString(6, verification);
            insert.setString(7, legacyVerification);
            insert.setBoolean(8, claimType != null && List.of("root_cause", "symptom", "impact", "risk").contains(claimType));
            insert.setString(9, "checked against the trace");
            insert.setString(10, evidenceRefs);
            insert.setLong(11, auditId);
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
    }

    private static void finding(Connection connection, long auditId, int ordinal, Integer claimOrdinal, String code)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                SELECT ?, ?, ?, ?, ?, a.audited_at FROM claimguard.verification_audit AS a WHERE a.id = ?""")) {
            insert.setLong(1, auditId);
            insert.setInt(2, ordinal);
            insert.setObject(3, claimOrdinal, Types.INTEGER);
            insert.setString(4, code);
            insert.setString(5, code + " found at " + ordinal);
            insert.setLong(6, auditId);
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
    }

    private static void deadLetter(Connection connection, String sourceRef, OffsetDateTime receivedAt,
            String reasonCode) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO claimguard.dead_letter (
                    source, source_ref, received_at, reason_code, reason, payload, payload_sha256, payload_size,
                    payload_truncated)
                VALUES ('file', ?, ?, ?, ?, ?, ?, ?, false)""")) {
            byte[] payload = ("not a verifier result: " + sourceRef).getBytes(StandardCharsets.UTF_8);
            insert.setString(1, sourceRef);
            insert.setObject(2, receivedAt);
            insert.setString(3, reasonCode);
            insert.setString(4, "rejected as " + reasonCode);
            insert.setBytes(5, payload);
            insert.setBytes(6, Sha256.of(sourceRef.getBytes(StandardCharsets.UTF_8)));
            insert.setLong(7, payload.length);
            insert.executeUpdate();
        }
    }

    /** A statement as the database owner, in the analyst's time zone. */
    private static <T> List<T> query(String sql, RowReader<T> reader, Object... parameters) throws SQLException {
        try (Connection connection = analystSession();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                return readAll(rs, reader);
            }
        }
    }

    private static final Pattern PSQL_VARIABLE = Pattern.compile("(?<!:):'([A-Za-z_][A-Za-z0-9_]*)'");

    /**
     * Runs a db/queries file the way an analyst does, as claimguard_reader: each psql variable {@code :'name'}
     * becomes a bound parameter, so the file's text is what is executed.
     */
    private static <T> List<T> runQueryFile(String file, Map<String, String> variables, RowReader<T> reader)
            throws IOException, SQLException {
        String text = Files.readString(QUERIES.resolve(file));
        // whole-line comments are dropped so that a variable named in a comment is not taken for one in the SQL, and
        // psql's own commands (a check that the variables are set) are psql's, not SQL
        String sql = String.join("\n", text.lines()
                .filter(line -> !line.stripLeading().startsWith("--") && !line.stripLeading().startsWith("\\")).toList());
        List<String> values = new ArrayList<>();
        Matcher variable = PSQL_VARIABLE.matcher(sql);
        StringBuilder jdbcSql = new StringBuilder();
        while (variable.find()) {
            String name = variable.group(1);
            assertThat(variables).as("psql variables of %s", file).containsKey(name);
            values.add(variables.get(name));
            variable.appendReplacement(jdbcSql, "?");
        }
        variable.appendTail(jdbcSql);

        try (Connection connection = analystSession()) {
            setRole(connection, READER);
            try (PreparedStatement statement = connection.prepareStatement(jdbcSql.toString())) {
                for (int i = 0; i < values.size(); i++) {
                    statement.setString(i + 1, values.get(i));
                }
                try (ResultSet rs = statement.executeQuery()) {
                    return readAll(rs, reader);
                }
            }
        }
    }

    private static <T> List<T> readAll(ResultSet rs, RowReader<T> reader) throws SQLException {
        List<T> rows = new ArrayList<>();
        while (rs.next()) {
            rows.add(reader.read(rs));
        }
        return rows;
    }

    private static Connection analystSession() throws SQLException {
        Connection connection = database.connect();
        try (PreparedStatement statement = connection.prepareStatement("SELECT set_config('TimeZone', ?, false)")) {
            statement.setString(1, ANALYST_TIME_ZONE);
            statement.executeQuery().close();
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** SET ROLE for the session, as a bound parameter; "none" goes back to the login's own role. */
    private static void setRole(Connection connection, String role) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT set_config('role', ?, false)")) {
            statement.setString(1, role);
            statement.executeQuery().close();
        }
    }

    private static long count(Connection connection, String countStatement) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(countStatement)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void assertInsufficientPrivilege(Connection connection, String sql, Object... parameters) {
        assertThatThrownBy(() -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                statement.execute();
            }
        }).as(sql).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).as(sql + ": " + e.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
    }

    private static ReasonCount reasonCount(ResultSet rs) throws SQLException {
        return new ReasonCount(rs.getObject("day", LocalDate.class), rs.getString("reason_code"),
                rs.getLong("fired_count"), rs.getLong("downgraded_count"));
    }

    private static Overruled overruled(ResultSet rs) throws SQLException {
        return new Overruled(rs.getLong("id"), rs.getString("request_id"),
                rs.getObject("received_at", OffsetDateTime.class).toInstant(), rs.getString("effective_verdict"),
                List.of((String[]) rs.getArray("guard_reasons").getArray()));
    }

    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private record ReasonCount(LocalDate day, String reasonCode, long fired, long downgraded) {
    }

    private record LabelCount(String claimType, String verification, String legacyVerification, long count) {
    }

    private record ToolCount(String toolName, String verification, long count) {
    }

    private record Overruled(long id, String requestId, Instant receivedAt, String effectiveVerdict,
            List<String> guardReasons) {
    }

    private record VersionShare(LocalDate day, long v2, long v1, long none, long total, BigDecimal v2Share) {
    }
}
