package io.claimguard.config;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.postgresql.PGConnection;

/**
 * Makes the runtime login with a privileged login's connection, or brings it up to date: a LOGIN role that is
 * NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS, a member of {@code claimguard_writer} (adds and reads
 * audit rows) and {@code claimguard_reader} (the explorer's read-only role) and of nothing else, whose password is
 * {@link #derivedPassword derived} from the given login's: every instance given the same login agrees on it without a
 * stored secret, so no start of one instance locks out another.
 *
 * <p>Roles belong to the whole server, which may host many ClaimGuard databases whose instances start at the same
 * moment; every step tolerates another instance taking it at the same time, and is tried again when PostgreSQL says it
 * lost such a race. A role of that name that ClaimGuard did not make (its comment says so) is never touched.
 */
public final class RuntimeLoginMaker {

    /** The roles of the migrations (V2, V3) the runtime login is a member of, and the only ones. */
    public static final List<String> MEMBER_OF = List.of("claimguard_writer", "claimguard_reader");

    /** The comment that marks a role as ClaimGuard's runtime login; a role without it is not ClaimGuard's to change. */
    static final String MARK = "ClaimGuard's runtime login, made by ClaimGuard at start (claimguard.database.runtime-login): "
            + "a member of claimguard_writer and claimguard_reader only; its password is derived from the login ClaimGuard "
            + "was given, never stored.";

    /** A plain lower-case identifier: needs no quoting in psql or a pg_hba.conf line, and cannot carry SQL. */
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private static final String DERIVATION = "claimguard runtime login\n";

    private static final int ATTEMPTS = 8;

    private RuntimeLoginMaker() {
    }

    /** Whether {@code name} may name a runtime login: lower-case letters, digits and underscores, at most 63. */
    static boolean isPlainName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /**
     * The runtime login's password: HMAC-SHA256, keyed with the given login's password, of a fixed label and the
     * runtime login's name, base64url. Only who knows the given password can compute it; nothing needs storing.
     */
    public static String derivedPassword(String givenPassword, String login) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(givenPassword.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] tag = mac.doFinal((DERIVATION + login).getBytes(StandardCharsets.UTF_8));
            return "cg1." + Base64.getUrlEncoder().withoutPadding().encodeToString(tag);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /**
     * Makes or brings up to date the runtime login {@code login} on the given login's connection; returns its password
     * (null when the given login has none: then neither has the runtime login, which can connect only where the server
     * asks no password, as the given login did).
     *
     * @throws SQLException when the given login may not (insufficient privilege, a role of that name that is not
     *     ClaimGuard's, the migrations' roles missing), or a race was lost more than a few times
     */
    public static String make(Connection given, String login, String givenPassword) throws SQLException {
        if (!isPlainName(login)) {
            throw new IllegalArgumentException("not a plain role name: " + login);
        }
        String password = givenPassword == null || givenPassword.isEmpty() ? null : derivedPassword(givenPassword, login);
        given.setAutoCommit(true);
        for (int attempt = 1; ; attempt++) {
            try {
                if (!exists(given, login)) {
                    create(given, login);
                }
                for (String role : MEMBER_OF) {
                    grant(given, role, login);
                }
                setPassword(given, login, password);
                return password;
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || !lostARace(e)) {
                    throw e;
                }
                // another instance is making the same login: let it finish, then look again
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(5_000_000L, 50_000_000L) * attempt);
            }
        }
    }

    /** Whether the role exists; throws when it does but is not ClaimGuard's (its comment is not {@link #MARK}). */
    private static boolean exists(Connection connection, String login) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT pg_catalog.shobj_description(oid, 'pg_authid') FROM pg_catalog.pg_roles WHERE rolname = ?")) {
            query.setString(1, login);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return false;
                }
                if (!MARK.equals(row.getString(1))) {
                    throw new SQLException("role " + login + " exists and was not made by ClaimGuard (its comment does "
                            + "not say so), so ClaimGuard leaves it alone", "42501");
                }
                return true;
            }
        }
    }

    /** CREATE ROLE and its mark in one transaction, so that no other instance sees the role without the mark. */
    private static void create(Connection connection, String login) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            // DDL takes no bind parameters: the name is a plain identifier (isPlainName) and quoted, the comment a constant
            statement.execute("CREATE ROLE " + quoted(login)
                    + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT");
            statement.execute("COMMENT ON ROLE " + quoted(login) + " IS '" + MARK.replace("'", "''") + "'");
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static void grant(Connection connection, String role, String login) throws SQLException {
        try (PreparedStatement member = connection.prepareStatement("SELECT pg_catalog.pg_has_role(?, ?, 'MEMBER')")) {
            member.setString(1, login);
            member.setString(2, role);
            try (ResultSet row = member.executeQuery()) {
                row.next();
                if (row.getBoolean(1)) {
                    return;
                }
            }
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("GRANT " + quoted(role) + " TO " + quoted(login));
        }
    }

    /**
     * Sets the password as a SCRAM-SHA-256 verifier computed here (pgjdbc's {@code alterUserPassword}), so that the
     * password itself never reaches the server, its statement log or {@code pg_stat_activity}.
     */
    private static void setPassword(Connection connection, String login, String password) throws SQLException {
        if (password == null) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("ALTER ROLE " + quoted(login) + " PASSWORD NULL");
            }
            return;
        }
        connection.unwrap(PGConnection.class).alterUserPassword(login, password.toCharArray(), "scram-sha-256");
    }

    /**
     * Another instance made the role or the membership at the same moment (a unique key or "already exists"), or
     * changed the role's row while this one did ({@code tuple concurrently updated}, a deadlock, a serialisation
     * failure): the step is worth another try.
     */
    private static boolean lostARace(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "40001".equals(state) || "40P01".equals(state)
                || ("42710".equals(state) && e.getMessage() != null && e.getMessage().contains("already exists"))
                || ("XX000".equals(state) && e.getMessage() != null && e.getMessage().contains("concurrently"));
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
