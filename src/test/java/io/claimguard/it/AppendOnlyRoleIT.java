package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

class AppendOnlyRoleIT extends ServiceTestSupport {

    private static final String WRITER = "claimguard_writer";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final List<String> AUDIT_TABLES = List.of(
            "claimguard.verification_audit", "claimguard.claim_check", "claimguard.dead_letter", "claimguard.audit_seal",
            "claimguard.finding", "claimguard.audit_input_key", "claimguard.dead_letter_key", "claimguard.audit_seal_key");

    @Autowired
    DataSource dataSource;

    @Autowired
    Flyway flyway;

    @Test
    @DisplayName("Scenario: The runtime role adds and reads audit rows but cannot change or remove them")
    void runtimeRoleIsAppendOnly() throws SQLException {
        String requestId = uniqueId("writer-direct");
        try (Connection connection = DATABASE.connect()) {
            setRole(connection, WRITER);
            connection.setAutoCommit(false);
            try {
                long auditId = queryLong(connection, """
                        INSERT INTO claimguard.verification_audit (
                            request_id, source, source_ref, received_at, effective_verdict, downgraded, guard_reasons,
                            projection_mode, audit, input_sha256)
                        VALUES (?, 'file', 'direct.json', now(), 'PASS', false, '{}', 'none', '{}', sha256(?::bytea))
                        RETURNING id""", requestId, requestId);
                execute(connection, """
                        INSERT INTO claimguard.claim_check (
                            audit_id, ordinal, legacy_verification, is_critical, evidence_refs, audited_at)
                        VALUES (?, 0, 'no_evidence', false, '[]', now())""", auditId);
                execute(connection, """
                        INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                        VALUES (?, 0, 0, 'evidence.unknown_invocation', 'direct insert', now())""", auditId);
                execute(connection, """
                        INSERT INTO claimguard.dead_letter (
                            source, source_ref, received_at, reason_code, reason, payload, payload_sha256, payload_size,
                            payload_truncated)
                        VALUES ('file', ?, now(), 'not_json', 'direct insert', '\\x00', sha256('\\x00'), 1, false)""",
                        requestId);
                execute(connection, """
                        INSERT INTO claimguard.audit_seal (audit_id, audited_at, previous_hash, hash)
                        VALUES (?, now(), sha256(?::bytea), sha256('\\x01'))""", auditId, requestId);

                assertThat(queryLong(connection, """
                        SELECT count(*) FROM claimguard.verification_audit a
                        JOIN claimguard.claim_check c ON c.audit_id = a.id
                        JOIN claimguard.finding f ON f.audit_id = a.id
                        JOIN claimguard.audit_seal s ON s.audit_id = a.id
                        JOIN claimguard.dead_letter d ON d.source_ref = a.request_id
                        WHERE a.id = ?""", auditId)).isEqualTo(1);
            } finally {
                // the rows were only proof that the role may insert them
                connection.rollback();
            }

            connection.setAutoCommit(true);
            for (String table : AUDIT_TABLES) {
                assertInsufficientPrivilege(connection, "UPDATE " + table + " SET " + someColumn(table) + " = NULL");
                assertInsufficientPrivilege(connection, "DELETE FROM " + table);
                assertInsufficientPrivilege(connection, "TRUNCATE " + table);
            }
        }
    }

    @Test
    @DisplayName("Scenario: The runtime role holds exactly the privileges the service needs")
    void runtimeRoleHoldsOnlyWhatTheServiceNeeds() {
        List<String> grants = SQL.queryForList("""
                SELECT c.relname || ' ' || a.privilege_type
                FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                CROSS JOIN LATERAL aclexplode(c.relacl) a
                WHERE n.nspname = 'claimguard' AND a.grantee = 'claimguard_writer'::regrole
                ORDER BY 1""", String.class);
        assertThat(grants).containsExactly(
                // the keys the write path inserts first, deciding uniqueness across the monthly partitions (V14)
                // where the archives end, for the checkpoint writer
                "audit_archive SELECT",
                "audit_input_key INSERT", "audit_input_key SELECT",
                "audit_seal INSERT", "audit_seal SELECT",
                "audit_seal_seq_seq USAGE",
                "chain_verification INSERT", "chain_verification SELECT",
                "chain_verification_id_seq USAGE",
                "claim_check INSERT", "claim_check SELECT",
                "dead_letter INSERT", "dead_letter SELECT",
                "dead_letter_id_seq USAGE",
                "dead_letter_key INSERT", "dead_letter_key SELECT",
                "finding INSERT", "finding SELECT",
                // the Kafka entry's delivery counts: bookkeeping, not audit, updated in place (V11)
                "kafka_delivery INSERT", "kafka_delivery SELECT", "kafka_delivery UPDATE",
                "verification_audit INSERT", "verification_audit SELECT",
                "verification_audit_id_seq USAGE");

        assertThat(SQL.queryForMap("""
                SELECT has_schema_privilege('claimguard_writer', 'claimguard', 'USAGE') AS schema_usage,
                       has_schema_privilege('claimguard_writer', 'claimguard', 'CREATE') AS schema_create,
                       rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls
                FROM pg_roles WHERE rolname = 'claimguard_writer'"""))
                .containsEntry("schema_usage", true).containsEntry("schema_create", false)
                .containsEntry("rolcanlogin", false).containsEntry("rolsuper", false)
                .containsEntry("rolcreaterole", false).containsEntry("rolcreatedb", false)
                .containsEntry("rolbypassrls", false);
    }

    @Test
    @DisplayName("Scenario: The service acts as the runtime role and Flyway migrates as the owner on its own connection")
    void serviceActsAsRuntimeRoleAndFlywayAsOwner() throws SQLException {
        // the test database's superuser is a privileged login: the service connects as the runtime login it made
        assertThat(new JdbcTemplate(dataSource).queryForMap("SELECT current_user AS acting, session_user AS login"))
                .containsEntry("acting", WRITER).containsEntry("login", "claimguard_runtime");

        DataSource migrations = flyway.getConfiguration().getDataSource();
        assertThat(migrations).isNotSameAs(dataSource);
        try (Connection connection = migrations.getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT current_user");
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(DATABASE.username());
        }
        assertThat(SQL.queryForList("SELECT DISTINCT installed_by FROM claimguard.flyway_schema_history", String.class))
                .containsExactly(DATABASE.username());
        assertThat(SQL.queryForList("""
                SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'claimguard'""", String.class))
                .containsExactly(DATABASE.username());
    }

    /** A column of the table that exists; the privilege check fails the UPDATE before any constraint is looked at. */
    private static String someColumn(String table) {
        if (table.endsWith("_key")) {
            return table.endsWith("audit_seal_key") ? "previous_hash" : table.endsWith("audit_input_key") ? "audited_at" : "source";
        }
        return table.endsWith("claim_check") || table.endsWith("finding") ? "detail" : table.endsWith("audit_seal") ? "hash" : "source";
    }

    /** SET ROLE with the name bound as a parameter. */
    private static void setRole(Connection connection, String role) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT set_config('role', ?, false)")) {
            statement.setString(1, role);
            statement.executeQuery().close();
        }
    }

    private static long queryLong(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters); ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, parameters)) {
            statement.execute();
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }

    private static void assertInsufficientPrivilege(Connection connection, String sql) {
        assertThatThrownBy(() -> execute(connection, sql)).as(sql).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).as(sql + ": " + e.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
    }
}
