package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.config.LoginPrivileges.Privilege;
import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The check the service runs on the login it is given and on its runtime connections, against logins of the test's
 * own making on a migrated database of its own. Roles belong to the whole server: their names carry this run's suffix,
 * and they are dropped at the end.
 */
class LoginPrivilegesIT {

    private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private static final String WRITER_ONLY = "cg_lp_" + RUN + "_writer_only";
    private static final String TABLE_OWNER = "cg_lp_" + RUN + "_table_owner";
    private static final String UPDATER = "cg_lp_" + RUN + "_updater";
    private static final String UPDATER_MEMBER = "cg_lp_" + RUN + "_updater_member";
    private static final String ROLE_MAKER = "cg_lp_" + RUN + "_role_maker";
    private static final String WRITE_ALL = "cg_lp_" + RUN + "_write_all";
    private static final String TRUNCATOR = "cg_lp_" + RUN + "_truncator";
    private static final List<String> ROLES = List.of(WRITER_ONLY, TABLE_OWNER, UPDATER_MEMBER, UPDATER, ROLE_MAKER,
            WRITE_ALL, TRUNCATOR);

    /** Where the server asks for one (a Testcontainers PostgreSQL); the local server trusts 127.0.0.1. */
    private static final String PASSWORD = "login-check";

    private static TestDatabase database;

    @BeforeAll
    static void logins() throws SQLException {
        database = TestDatabase.createSeparate().migrated();
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            // names of the test's own making (letters, digits, underscores): DDL takes no bind parameter
            sql.execute(login(WRITER_ONLY, "IN ROLE claimguard_writer, claimguard_reader"));
            sql.execute(login(TABLE_OWNER, ""));
            sql.execute("ALTER TABLE claimguard.dead_letter OWNER TO " + TABLE_OWNER);
            sql.execute("CREATE ROLE " + UPDATER + " NOLOGIN");
            sql.execute("GRANT UPDATE ON claimguard.finding TO " + UPDATER);
            // NOINHERIT: the privilege is not the login's own, but SET ROLE reaches it all the same
            sql.execute(login(UPDATER_MEMBER, "NOINHERIT IN ROLE claimguard_writer, " + UPDATER));
            sql.execute(login(ROLE_MAKER, "CREATEROLE IN ROLE claimguard_writer"));
            sql.execute(login(WRITE_ALL, "IN ROLE claimguard_writer, pg_write_all_data"));
            sql.execute(login(TRUNCATOR, "IN ROLE claimguard_writer"));
            sql.execute("GRANT TRUNCATE ON claimguard.verification_audit TO " + TRUNCATOR);
        }
    }

    @AfterAll
    static void dropLogins() throws SQLException {
        database.drop();
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl().replaceFirst("/[^/]*$", "/postgres"),
                database.username(), database.password()); Statement sql = connection.createStatement()) {
            for (String role : ROLES) {
                sql.execute("DROP ROLE IF EXISTS " + role);
            }
        }
    }

    @Test
    @DisplayName("Scenario: The start check names every way a login could change audit rows, itself or through a role it may SET ROLE to")
    void namesEveryWayALoginCouldChangeAuditRows() throws SQLException {
        assertThat(privilegesOf(WRITER_ONLY)).isEmpty();
        assertThat(privilegesOf(database.username()))
                .containsExactly(new Privilege(database.username(), "is a superuser", true));
        assertThat(privilegesOf(TABLE_OWNER)).containsExactly(
                new Privilege(TABLE_OWNER, "owns claimguard.dead_letter", true));
        assertThat(privilegesOf(UPDATER_MEMBER)).containsExactly(
                new Privilege(UPDATER, "may UPDATE claimguard.finding", false));
        assertThat(privilegesOf(ROLE_MAKER)).containsExactly(new Privilege(ROLE_MAKER, "may create roles", true));
        assertThat(privilegesOf(WRITE_ALL)).contains(
                new Privilege(WRITE_ALL, "may UPDATE claimguard.verification_audit", true),
                new Privilege(WRITE_ALL, "may DELETE claimguard.audit_seal", true),
                new Privilege("pg_write_all_data", "may UPDATE claimguard.verification_audit", false));
        assertThat(privilegesOf(TRUNCATOR)).containsExactly(
                new Privilege(TRUNCATOR, "may TRUNCATE claimguard.verification_audit", true));

        // asked about the login, not the role a SET ROLE took: acting as the writer hides nothing
        try (Connection connection = connectAs(UPDATER_MEMBER); Statement sql = connection.createStatement()) {
            sql.execute("SET ROLE claimguard_writer");
            assertThat(LoginPrivileges.of(connection)).containsExactly(
                    new Privilege(UPDATER, "may UPDATE claimguard.finding", false));
        }
        assertThat(LoginPrivileges.summary(privilegesOf(UPDATER_MEMBER)))
                .isEqualTo("it may SET ROLE " + UPDATER + ", which may UPDATE claimguard.finding");
        assertThat(LoginPrivileges.summary(privilegesOf(WRITE_ALL))).endsWith(" more");
    }

    /** CREATE ROLE for a login of the test's own (a name and attributes of its making, never input). */
    private static String login(String name, String attributes) {
        return "CREATE ROLE " + name + " LOGIN PASSWORD '" + PASSWORD + "' " + attributes;
    }

    private static List<Privilege> privilegesOf(String login) throws SQLException {
        try (Connection connection = connectAs(login)) {
            return LoginPrivileges.of(connection);
        }
    }

    private static Connection connectAs(String login) throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), login,
                login.equals(database.username()) ? database.password() : PASSWORD);
    }
}
