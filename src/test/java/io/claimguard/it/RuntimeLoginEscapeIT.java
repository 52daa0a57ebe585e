package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The attack, on the service's own connection: whoever holds one of its runtime connections tries every way out
 * of its role (RESET ROLE, SET ROLE to each role the server has) and, from every role it gets into, every way to change,
 * remove or unprotect the rows of every table in schema claimguard (the audit tables, the seals, the findings, the
 * replay tables, Flyway's history): UPDATE, DELETE, TRUNCATE, ALTER TABLE, DROP TRIGGER, DISABLE TRIGGER, DROP TABLE,
 * and around them setval, a table of its own in the schema, session_replication_role (which switches triggers off).
 * Each table gets a trigger of the test's making for the duration, so that there is a trigger to drop and disable.
 */
class RuntimeLoginEscapeIT extends ServiceTestSupport {

    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String UNDEFINED_OBJECT = "42704";
    private static final String PROBE_TRIGGER = "escape_probe";
    private static final String BOOKKEEPING_UPDATED = "claimguard.kafka_delivery";

    @Autowired
    DataSource dataSource;

    @Test
    @DisplayName("Scenario: Holding a runtime connection, neither RESET ROLE nor SET ROLE to any role lets it change, remove or unprotect an audit row")
    void noRoleLetsTheRuntimeConnectionChangeAuditRows() throws SQLException {
        Map<String, String> tables = tablesAndAColumn();
        assertThat(tables).containsKeys("claimguard.verification_audit", "claimguard.claim_check", "claimguard.finding",
                "claimguard.dead_letter", "claimguard.audit_seal", "claimguard.replay_run", "claimguard.replay_outcome");
        addProbeTriggers(tables.keySet());
        HikariDataSource pool = (HikariDataSource) dataSource;
        Connection runtime = pool.getConnection();
        try (Statement sql = runtime.createStatement()) {
            String login = queryString(sql, "SELECT session_user");
            assertThat(login).isEqualTo("claimguard_runtime");
            assertThat(queryString(sql, "SELECT current_user")).isEqualTo("claimguard_writer");

            sql.execute("RESET ROLE");
            assertThat(queryString(sql, "SELECT current_user")).isEqualTo(login);
            assertEveryChangeRefused(sql, tables, login);

            List<String> entered = new ArrayList<>();
            for (String role : everyRole()) {
                try {
                    sql.execute("SET ROLE " + quoted(role));
                } catch (SQLException refused) {
                    // refused, or another test's role dropped since it was listed
                    assertThat(refused.getSQLState()).as("SET ROLE %s: %s", role, refused.getMessage())
                            .isIn(INSUFFICIENT_PRIVILEGE, UNDEFINED_OBJECT);
                    continue;
                }
                entered.add(role);
                assertEveryChangeRefused(sql, tables, role);
                sql.execute("RESET ROLE");
            }
            assertThat(entered).as("roles SET ROLE got into").containsExactlyInAnyOrder(
                    login, "claimguard_writer", "claimguard_reader");
            assertThat(SQL.queryForObject("SELECT count(*) FROM pg_trigger WHERE tgname = ? AND tgenabled = 'O'",
                    Long.class, PROBE_TRIGGER)).as("probe triggers still there and enabled").isEqualTo(tables.size());
        } finally {
            // its role was reset: the pool must not hand it out again
            pool.evictConnection(runtime);
            dropProbeTriggers(tables.keySet());
        }
    }

    /** Every way to change, remove or unprotect rows of every table, each refused for want of privilege. */
    private static void assertEveryChangeRefused(Statement sql, Map<String, String> tables, String actingAs) {
        List<String> attempts = new ArrayList<>();
        tables.forEach((table, column) -> {
            // the one UPDATE the writer holds, on the Kafka entry's delivery counts (bookkeeping, not audit; the
            // threat model and the start check name it); everything else is refused there too
            if (!BOOKKEEPING_UPDATED.equals(table) || "claimguard_reader".equals(actingAs)) {
                attempts.add("UPDATE " + table + " SET " + column + " = " + column);
            }
            attempts.add("DELETE FROM " + table);
            attempts.add("TRUNCATE " + table);
            attempts.add("ALTER TABLE " + table + " ADD COLUMN escape_probe integer");
            attempts.add("ALTER TABLE " + table + " DISABLE TRIGGER " + PROBE_TRIGGER);
            attempts.add("ALTER TABLE " + table + " DISABLE TRIGGER ALL");
            attempts.add("DROP TRIGGER " + PROBE_TRIGGER + " ON " + table);
            attempts.add("DROP TABLE " + table);
        });
        attempts.add("SELECT setval('claimguard.verification_audit_id_seq', 1)");
        attempts.add("SELECT setval('claimguard.audit_seal_seq_seq', 1)");
        attempts.add("CREATE TABLE claimguard.escape_probe (id integer)");
        attempts.add("SET session_replication_role = replica");
        attempts.add("SET SESSION AUTHORIZATION " + quoted(DATABASE.username()));
        for (String attempt : attempts) {
            assertThatThrownBy(() -> sql.execute(attempt)).as("as %s: %s", actingAs, attempt)
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState())
                            .as("as %s: %s: %s", actingAs, attempt, e.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
        }
    }

    /** Every table of schema claimguard, with one of its columns (the first), straight from the catalog. */
    private static Map<String, String> tablesAndAColumn() {
        Map<String, String> tables = new LinkedHashMap<>();
        SQL.query("""
                SELECT format('%I.%I', n.nspname, c.relname) AS name, format('%I', a.attname) AS column_name
                FROM pg_class AS c
                JOIN pg_namespace AS n ON n.oid = c.relnamespace
                JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum = 1
                WHERE n.nspname = 'claimguard' AND c.relkind IN ('r', 'p')
                ORDER BY 1""", (ResultSet row) -> {
            tables.put(row.getString("name"), row.getString("column_name"));
        });
        return tables;
    }

    private static TreeSet<String> everyRole() {
        return new TreeSet<>(SQL.queryForList("SELECT rolname FROM pg_roles", String.class));
    }

    /** As the owner: a statement-level trigger that does nothing, on every table (names from the catalog, quoted). */
    private static void addProbeTriggers(Iterable<String> tables) {
        SQL.execute("CREATE OR REPLACE FUNCTION public.escape_probe() RETURNS trigger LANGUAGE plpgsql "
                + "AS $$ BEGIN RETURN NULL; END $$");
        for (String table : tables) {
            SQL.execute("CREATE TRIGGER " + PROBE_TRIGGER + " AFTER INSERT ON " + table
                    + " FOR EACH STATEMENT EXECUTE FUNCTION public.escape_probe()");
        }
    }

    private static void dropProbeTriggers(Iterable<String> tables) {
        for (String table : tables) {
            SQL.execute("DROP TRIGGER IF EXISTS " + PROBE_TRIGGER + " ON " + table);
        }
        SQL.execute("DROP FUNCTION IF EXISTS public.escape_probe()");
    }

    private static String queryString(Statement sql, String query) throws SQLException {
        try (ResultSet row = sql.executeQuery(query)) {
            row.next();
            return row.getString(1);
        }
    }

    /** SET ROLE takes no bind parameter: the name, from pg_roles, is written as a quoted identifier. */
    private static String quoted(String role) {
        return "\"" + role.replace("\"", "\"\"") + "\"";
    }
}
