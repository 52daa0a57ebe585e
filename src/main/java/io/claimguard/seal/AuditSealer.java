package io.claimguard.seal;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Seals audit rows into the hash chain of {@code claimguard.audit_seal}: each round takes the committed rows that
 * have no seal yet, in id order, and appends one seal per row, each hash over the previous seal's hash and the
 * row's content ({@link SealHash}).
 *
 * <p>Rows are found by "no seal yet", never by "id above the last sealed one": with concurrent writers a lower id
 * can commit after a higher one, and would be skipped forever. The chain runs in seal order ({@code seq}), not id
 * order, for the same reason.
 *
 * <p>Looking at the whole table every round would cost a scan of it every second (about 0.5 s per million rows),
 * so {@link #sealNewRows()} looks only at ids above the one sealed by S, the newest seal older than {@code window}.
 * A row R below it was given its id before S's row, so R's transaction was already open when S was sealed
 * ({@code sealed_at} is {@code clock_timestamp()}, taken after S's row became visible), more than {@code window}
 * ago. Had R committed in the meantime, a round would have sealed it; so R's insert stayed open about that long,
 * or the rounds since failed. {@link #sealAllRows()} looks at the whole table and seals such rows too: the caller
 * runs it at start, at least once per {@code window} and after failed rounds, so that every row is sealed.
 *
 * <p>Within a round each batch goes on from the highest id the round sealed so far instead of from the round's floor:
 * the rows it passes were either sealed or not yet committed when the batch before looked, and the latter are the
 * next round's. So a round over a backlog of any size reads each row once, and catching up stays linear (looking
 * from the floor again for every batch made it quadratic: 100 rows/s at a backlog of a million). The anti-join
 * bounds the seals it reads by the same id, so that neither side is read from the start.
 *
 * <p>Only one sealer works at a time, across every service instance on the database: each batch runs in a
 * transaction that first takes a transaction-level advisory lock, and a sealer that does not get it leaves the
 * batch to the one that has it. The chain cannot fork anyway: {@code previous_hash} is unique.
 */
public final class AuditSealer {

    /** The advisory lock key that serialises the sealers of one database: "claimgrd" in ASCII. */
    public static final long LOCK_KEY = 0x636c61696d677264L;

    private static final int FETCH_SIZE = 50;

    /** Claim checks and findings are small: read more at a time. */
    private static final int CHILD_FETCH_SIZE = 1_000;

    private static final String TRY_LOCK = "SELECT pg_try_advisory_xact_lock(?)";

    private static final String CHAIN_HEAD = "SELECT hash FROM claimguard.audit_seal ORDER BY seq DESC LIMIT 1";

    /** The audit id of the newest seal older than the window; 0 (every id) when there is none. */
    private static final String RECENT_FLOOR = """
            SELECT coalesce((
                SELECT audit_id FROM claimguard.audit_seal
                WHERE sealed_at < now() - make_interval(secs => ?)
                ORDER BY sealed_at DESC
                LIMIT 1), 0)
            """;

    /**
     * The batch's rows: their keys only, the id and audited_at (in microseconds since the epoch, exact). Package-private
     * for the test that shows a batch reads only the rows above where its round got to.
     */
    static final String UNSEALED_ROWS = """
            SELECT a.id, (extract(epoch FROM a.audited_at) * 1000000)::bigint
            FROM claimguard.verification_audit AS a
            WHERE a.id > ?
              AND NOT EXISTS (SELECT 1 FROM claimguard.audit_seal AS s
                              WHERE s.audit_id = a.id AND s.audited_at = a.audited_at AND s.audit_id > ?)
            ORDER BY a.id
            LIMIT ?
            """;

    /** The batch's keys as a relation: ids and audited_at in microseconds, two arrays of the same length. */
    private static final String KEYS = """
            unnest(CAST(? AS bigint[]), CAST(? AS bigint[])) AS k (id, micros)
            CROSS JOIN LATERAL (SELECT timestamptz 'epoch' + k.micros * interval '1 microsecond' AS at) AS t
            """;

    /**
     * The content of the batch's rows, then their claim checks and findings beside them, each in id order
     * ({@link SealHash.SplitContent}); each row is looked up by its key (OFFSET 0 keeps the lookup a subquery).
     */
    private static final String ROWS = "SELECT r.*, k.id FROM " + KEYS + " CROSS JOIN LATERAL (SELECT "
            + SealHash.ROW_PART + """
                FROM claimguard.verification_audit AS a WHERE a.id = k.id AND a.audited_at = t.at OFFSET 0) AS r
            ORDER BY k.id
            """;

    private static final String CLAIMS = "SELECT k.id, " + SealHash.CLAIM_PART + " FROM " + KEYS + """
            JOIN claimguard.claim_check AS c ON c.audit_id = k.id AND c.audited_at = t.at
            ORDER BY k.id, c.ordinal
            """;

    private static final String FINDINGS = "SELECT k.id, " + SealHash.FINDING_PART + " FROM " + KEYS + """
            JOIN claimguard.finding AS f ON f.audit_id = k.id AND f.audited_at = t.at
            ORDER BY k.id, f.ordinal
            """;

    /** The seal lies in its row's partition: it carries the row's audited_at (V14). */
    private static final String INSERT_SEAL = """
            INSERT INTO claimguard.audit_seal (audit_id, audited_at, previous_hash, hash)
            VALUES (?, timestamptz 'epoch' + ? * interval '1 microsecond', ?, ?)
            """;

    private final DataSource dataSource;
    private final int batchSize;
    private final Duration window;

    /**
     * @param batchSize the most rows sealed in one transaction
     * @param window how far back {@link #sealNewRows()} looks; see the class comment
     */
    public AuditSealer(DataSource dataSource, int batchSize, Duration window) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, not " + batchSize);
        }
        this.dataSource = dataSource;
        this.batchSize = batchSize;
        this.window = window;
    }

    /** Seals the rows without a seal whose ids are above the newest seal older than the window; returns how many. */
    public int sealNewRows() throws SQLException {
        return sealRound(false);
    }

    /** Seals every row without a seal, however old; returns how many. */
    public int sealAllRows() throws SQLException {
        return sealRound(true);
    }

    private int sealRound(boolean wholeTable) throws SQLException {
        Long after = wholeTable ? Long.valueOf(Long.MIN_VALUE) : null;
        int total = 0;
        Batch batch;
        do {
            batch = sealBatch(after);
            total += batch.sealed();
            after = batch.lastAuditId();
        } while (batch.sealed() == batchSize);
        return total;
    }

    /** @param after the id the batch looks above; null for the newest seal older than the window */
    private Batch sealBatch(Long after) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            // READ COMMITTED: each statement below sees what committed before it, so after the lock it sees the
            // seals of the sealer that held the lock before
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connection.setAutoCommit(false);
            try {
                Batch batch = lockedByUs(connection) ? appendSeals(connection, after) : new Batch(0, after);
                connection.commit();
                return batch;
            } catch (SQLException | RuntimeException e) {
                rollback(connection, e);
                throw e;
            }
        }
    }

    private Batch appendSeals(Connection connection, Long after) throws SQLException {
        long floor = after != null ? after : recentFloor(connection);
        List<Long> ids = new ArrayList<>();
        List<Long> micros = new ArrayList<>();
        try (PreparedStatement keys = connection.prepareStatement(UNSEALED_ROWS)) {
            keys.setLong(1, floor);
            keys.setLong(2, floor);
            keys.setInt(3, batchSize);
            try (ResultSet rs = keys.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    micros.add(rs.getLong(2));
                }
            }
        }
        if (ids.isEmpty()) {
            return new Batch(0, floor);
        }
        byte[] previousHash = chainHead(connection);
        List<Seal> seals = new ArrayList<>(ids.size());
        Array idArray = connection.createArrayOf("bigint", ids.toArray());
        Array microsArray = connection.createArrayOf("bigint", micros.toArray());
        try (PreparedStatement rowQuery = keyed(connection, ROWS, idArray, microsArray, FETCH_SIZE);
                PreparedStatement claimQuery = keyed(connection, CLAIMS, idArray, microsArray, CHILD_FETCH_SIZE);
                PreparedStatement findingQuery = keyed(connection, FINDINGS, idArray, microsArray, CHILD_FETCH_SIZE);
                ResultSet rows = rowQuery.executeQuery();
                ResultSet claims = claimQuery.executeQuery();
                ResultSet findings = findingQuery.executeQuery()) {
            SealHash.SplitContent content = new SealHash.SplitContent(claims, findings);
            int next = 0;
            while (rows.next()) {
                long auditId = rows.getLong(SealHash.ROW_PART_COLUMNS + 1);
                // a key without its row (none can vanish: the table is append-only) would only be left for the next round
                while (ids.get(next) != auditId) {
                    next++;
                }
                byte[] hash = content.link(previousHash, rows, auditId);
                seals.add(new Seal(auditId, micros.get(next), previousHash, hash));
                previousHash = hash;
            }
        }
        // executed in order, so seq follows the chain
        try (PreparedStatement insert = connection.prepareStatement(INSERT_SEAL)) {
            for (Seal seal : seals) {
                insert.setLong(1, seal.auditId());
                insert.setLong(2, seal.auditedAtMicros());
                insert.setBytes(3, seal.previousHash());
                insert.setBytes(4, seal.hash());
                insert.addBatch();
            }
            insert.executeBatch();
        }
        return new Batch(seals.size(), ids.get(ids.size() - 1));
    }

    private static PreparedStatement keyed(Connection connection, String sql, Array ids, Array micros, int fetchSize)
            throws SQLException {
        PreparedStatement query = connection.prepareStatement(sql);
        query.setArray(1, ids);
        query.setArray(2, micros);
        // rows can be large (the audit JSON of a 1 MiB input): read a few at a time, keep only the hashes
        query.setFetchSize(fetchSize);
        return query;
    }

    private static boolean lockedByUs(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(TRY_LOCK)) {
            lock.setLong(1, LOCK_KEY);
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private long recentFloor(Connection connection) throws SQLException {
        try (PreparedStatement floor = connection.prepareStatement(RECENT_FLOOR)) {
            floor.setDouble(1, window.toMillis() / 1000.0);
            try (ResultSet rs = floor.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static byte[] chainHead(Connection connection) throws SQLException {
        try (PreparedStatement head = connection.prepareStatement(CHAIN_HEAD); ResultSet rs = head.executeQuery()) {
            return rs.next() ? rs.getBytes(1) : SealHash.GENESIS;
        }
    }

    private static void rollback(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    private record Seal(long auditId, long auditedAtMicros, byte[] previousHash, byte[] hash) {
    }

    /** How many rows a batch sealed, and the id the next batch of its round looks above. */
    private record Batch(int sealed, Long lastAuditId) {
    }
}
