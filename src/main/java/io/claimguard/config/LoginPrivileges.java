package io.claimguard.config;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a session's login could do to the audit tables beyond adding and reading rows, by itself or through any role it
 * may {@code SET ROLE} to (its memberships, direct or indirect, whatever their INHERIT setting; that includes every role
 * {@code RESET ROLE} returns to, since that is the login itself): be a superuser; create roles (which lets it grant
 * itself other roles); own the database, schema {@code claimguard} or one of its tables (an owner may alter, drop or
 * disable the triggers of a table, and drop the tables of its schema); or hold UPDATE, DELETE, TRUNCATE or TRIGGER on a
 * table of schema {@code claimguard} (but UPDATE on {@code kafka_delivery}, the Kafka entry's delivery counts, which
 * the service itself updates). Asked about {@code session_user}, so that a {@code SET ROLE} the connection
 * made hides nothing. An empty answer is a login that cannot escape its role.
 */
public final class LoginPrivileges {

    /**
     * One row per privilege found, the most telling first; a superuser only as that. {@code pg_has_role(..., 'MEMBER')}
     * is true for the login
     * itself and every role it is a member of, directly or not: exactly the roles it may SET ROLE to (PostgreSQL 15;
     * from 16 on a membership can withhold SET, so this asks about more roles than SET ROLE reaches, never fewer).
     * {@code has_table_privilege} counts grants to PUBLIC and the predefined role {@code pg_write_all_data}.
     */
    static final String QUERY = """
            WITH reachable AS (
                SELECT r.oid, r.rolname, r.rolsuper, r.rolcreaterole
                FROM pg_catalog.pg_roles AS r
                WHERE pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER')
                  -- a superuser is a member of every role; that it is a superuser says it all
                  AND (r.rolname = session_user
                       OR NOT (SELECT s.rolsuper FROM pg_catalog.pg_roles AS s WHERE s.rolname = session_user))
            ), audit_table AS (
                SELECT c.oid, c.relowner, pg_catalog.format('%I.%I', n.nspname, c.relname) AS name
                FROM pg_catalog.pg_class AS c
                JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
                WHERE n.nspname = 'claimguard' AND c.relkind IN ('r', 'p')
            ), privilege (rolname, rank, what) AS (
                SELECT rolname, 1, 'is a superuser' FROM reachable WHERE rolsuper
                UNION ALL
                SELECT rolname, 2, 'may create roles' FROM reachable WHERE rolcreaterole AND NOT rolsuper
                UNION ALL
                SELECT r.rolname, 3, 'owns database ' || pg_catalog.quote_ident(d.datname)
                FROM reachable AS r JOIN pg_catalog.pg_database AS d ON d.datdba = r.oid
                WHERE d.datname = pg_catalog.current_database() AND NOT r.rolsuper
                UNION ALL
                SELECT r.rolname, 4, 'owns schema claimguard'
                FROM reachable AS r JOIN pg_catalog.pg_namespace AS n ON n.nspowner = r.oid
                WHERE n.nspname = 'claimguard' AND NOT r.rolsuper
                UNION ALL
                SELECT r.rolname, 5, 'owns ' || t.name
                FROM reachable AS r JOIN audit_table AS t ON t.relowner = r.oid
                WHERE NOT r.rolsuper
                UNION ALL
                SELECT r.rolname, 6, 'may ' || p.privilege || ' ' || t.name
                FROM reachable AS r
                CROSS JOIN audit_table AS t
                CROSS JOIN (VALUES ('UPDATE'), ('DELETE'), ('TRUNCATE'), ('TRIGGER')) AS p (privilege)
                WHERE NOT r.rolsuper AND t.relowner <> r.oid
                  AND pg_catalog.has_table_privilege(r.oid, t.oid, p.privilege)
                  -- the Kafka entry's delivery counts are the service's bookkeeping, not audit: it updates them (V11)
                  AND NOT (t.name = 'claimguard.kafka_delivery' AND p.privilege = 'UPDATE')
            )
            SELECT rolname, what, rolname = session_user AS own
            FROM privilege
            ORDER BY rank, rolname <> session_user, rolname, what
            """;

    /** How many privileges a one-line summary names before it counts the rest. */
    private static final int NAMED = 3;

    private LoginPrivileges() {
    }

    /**
     * One privilege: the role that holds it ({@code own} when that is the login itself) and what it may do.
     *
     * @param role the login, or a role the login may SET ROLE to
     * @param what e.g. {@code is a superuser}, {@code owns claimguard.verification_audit},
     *     {@code may UPDATE claimguard.dead_letter}
     */
    public record Privilege(String role, String what, boolean own) {

        @Override
        public String toString() {
            return own ? role + " " + what : "it may SET ROLE " + role + ", which " + what;
        }
    }

    /** The privileges of the connection's login ({@code session_user}) that could change audit rows; empty when none. */
    public static List<Privilege> of(Connection connection) throws SQLException {
        List<Privilege> found = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(QUERY); ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                found.add(new Privilege(rows.getString("rolname"), rows.getString("what"), rows.getBoolean("own")));
            }
        }
        return List.copyOf(found);
    }

    /** The first few privileges and how many more, for one log line: {@code postgres is a superuser}. */
    public static String summary(List<Privilege> privileges) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(NAMED, privileges.size()); i++) {
            text.append(i == 0 ? "" : "; ").append(privileges.get(i));
        }
        if (privileges.size() > NAMED) {
            text.append("; and ").append(privileges.size() - NAMED).append(" more");
        }
        return text.toString();
    }
}
