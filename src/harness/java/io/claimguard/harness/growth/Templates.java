package io.claimguard.harness.growth;

import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The real rows the service wrote for the examples, and their copies by SQL: each copy an audit row of one of them
 * (cycling through them) with its claim checks and findings, its own id, request id, source ref, input hash and a
 * time of receipt spread over the last 365 days; dead letters copied from the one real dead letter the same way.
 * Columns are read from the catalogue, so that a column added by a later migration is copied too.
 */
final class Templates {

    /** Columns given new values in each copy; every other column is copied as it is. */
    private static final Set<String> AUDIT_OWN = Set.of("id", "request_id", "source_ref", "received_at", "input_sha256",
            "audited_at");
    private static final Set<String> DEAD_LETTER_OWN = Set.of("id", "source_ref", "received_at", "recorded_at");
    private static final Set<String> CHILD_OWN = Set.of("audit_id", "audited_at");

    private final long lastTemplateId;
    private final long lastDeadLetterTemplateId;

    private Templates(long lastTemplateId, long lastDeadLetterTemplateId) {
        this.lastTemplateId = lastTemplateId;
        this.lastDeadLetterTemplateId = lastDeadLetterTemplateId;
    }

    static Templates snapshot(TestDatabase database) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT (SELECT max(id) FROM claimguard.verification_audit),"
                        + " (SELECT max(id) FROM claimguard.dead_letter)")) {
            rs.next();
            return new Templates(rs.getLong(1), rs.getLong(2));
        }
    }

    /**
     * Adds {@code count} audit rows (numbered after {@code have}) and 5 % dead letters, a chunk per transaction, then
     * VACUUM ANALYZE (autovacuum is off on this server).
     */
    void fill(TestDatabase database, long have, long count, int chunk, double deadLetterShare) throws SQLException {
        try (Connection connection = database.connect()) {
            List<String> auditColumns = copied(connection, "verification_audit", AUDIT_OWN);
            List<String> claimColumns = copied(connection, "claim_check", CHILD_OWN);
            List<String> findingColumns = copied(connection, "finding", CHILD_OWN);
            List<String> deadLetterColumns = copied(connection, "dead_letter", DEAD_LETTER_OWN);
            try (Statement statement = connection.createStatement()) {
                // the monthly partitions (V14) of the year the rows are spread over
                statement.execute("SELECT claimguard.create_audit_partitions((now() - interval '366 days')::date, 3)");
            }
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TEMP TABLE growth_template ON COMMIT PRESERVE ROWS AS SELECT id,"
                        + " row_number() OVER (ORDER BY id) - 1 AS k FROM claimguard.verification_audit WHERE id <= "
                        + lastTemplateId);
                connection.commit();
            }
            long templates = single(connection, "SELECT count(*) FROM growth_template");
            for (long from = have + 1; from <= have + count; from += chunk) {
                long to = Math.min(have + count, from + chunk - 1);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS growth_new");
                    statement.execute(String.format(Locale.ROOT, """
                            CREATE TEMP TABLE growth_new AS
                            SELECT nextval('claimguard.verification_audit_id_seq') AS id, g, t.id AS template_id,
                                   date_trunc('second', now()) - ((g * 7919) %% (365 * 86400)) * interval '1 second'
                                       AS received_at
                            FROM generate_series(%d::bigint, %d::bigint) AS g
                            JOIN growth_template AS t ON t.k = g %% %d""", from, to, templates));
                    statement.execute("INSERT INTO claimguard.verification_audit (id, request_id, source_ref, received_at,"
                            + " input_sha256, audited_at, " + String.join(", ", auditColumns) + ")"
                            + " SELECT n.id, 'growth-' || n.g, 'growth-' || n.g, n.received_at,"
                            + " sha256(('growth-' || n.g)::bytea), n.received_at + interval '50 milliseconds', "
                            + prefixed("t", auditColumns)
                            + " FROM growth_new AS n JOIN claimguard.verification_audit AS t ON t.id = n.template_id");
                    statement.execute("INSERT INTO claimguard.claim_check (audit_id, audited_at, " + String.join(", ", claimColumns)
                            + ") SELECT n.id, n.received_at + interval '50 milliseconds', " + prefixed("c", claimColumns)
                            + " FROM growth_new AS n"
                            + " JOIN claimguard.claim_check AS c ON c.audit_id = n.template_id");
                    statement.execute("INSERT INTO claimguard.finding (audit_id, audited_at, " + String.join(", ", findingColumns)
                            + ") SELECT n.id, n.received_at + interval '50 milliseconds', " + prefixed("f", findingColumns)
                            + " FROM growth_new AS n"
                            + " JOIN claimguard.finding AS f ON f.audit_id = n.template_id");
                    long deadLetters = Math.round((to - from + 1) * deadLetterShare / (1 - deadLetterShare));
                    statement.execute(String.format(Locale.ROOT, "INSERT INTO claimguard.dead_letter (source_ref,"
                            + " received_at, recorded_at, " + String.join(", ", deadLetterColumns) + ")"
                            + " SELECT 'growth-dead-' || g, date_trunc('second', now()) - ((g * 7919) %% (365 * 86400))"
                            + " * interval '1 second', now(), " + prefixed("d", deadLetterColumns)
                            + " FROM generate_series(%d::bigint, %d::bigint) AS g JOIN claimguard.dead_letter AS d ON d.id = %d",
                            from, from + deadLetters - 1, lastDeadLetterTemplateId));
                }
                connection.commit();
                System.out.printf(Locale.ROOT, "filled %,d of %,d%n", to - have, count);
            }
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                statement.execute("VACUUM ANALYZE claimguard.verification_audit, claimguard.claim_check,"
                        + " claimguard.finding, claimguard.dead_letter, claimguard.audit_seal");
            }
        }
    }

    private static List<String> copied(Connection connection, String table, Set<String> own) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("""
                SELECT column_name FROM information_schema.columns
                WHERE table_schema = 'claimguard' AND table_name = ? AND is_generated = 'NEVER'
                ORDER BY ordinal_position""")) {
            query.setString(1, table);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    if (!own.contains(rs.getString(1))) {
                        columns.add(rs.getString(1));
                    }
                }
            }
        }
        return columns;
    }

    private static String prefixed(String alias, List<String> columns) {
        return String.join(", ", columns.stream().map(column -> alias + "." + column).toList());
    }

    private static long single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
