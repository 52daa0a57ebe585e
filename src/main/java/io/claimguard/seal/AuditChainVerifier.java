package io.claimguard.seal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Recomputes the hash chain of {@code claimguard.audit_seal} from the audit rows as they are now, seal by seal in
 * seq order, and names the first broken link: a seal whose previous_hash is not the hash of the seal before (a
 * seal in between was removed, or this seal's previous_hash was altered), a seal whose audit row is gone, or a
 * row whose content (the row, its claim checks and its findings, as {@link SealHash} defines it) no longer gives its
 * seal's hash. It needs only to read schema claimguard
 * ({@code claimguard_reader}).
 *
 * <p>Everything is read in one read-only REPEATABLE READ transaction (a long walk's parts in transactions that import
 * its snapshot), so that the seals and rows the running sealer adds meanwhile are either all seen or not at all.
 */
public final class AuditChainVerifier {

    /** Rows are read a few at a time: one can be large (the audit JSON of a 1 MiB input). */
    private static final int FETCH_SIZE = 100;

    /** Claim checks and findings are small: read more at a time. */
    private static final int CHILD_FETCH_SIZE = 1_000;

    /**
     * Every seal after a seq with its row's values, in seq order, read through a cursor: memory holds a fetch of rows
     * whatever the chain's length. A seal whose row is gone has null values. Each row is looked up by its key from the
     * seal (OFFSET 0 keeps the lookup a subquery): joined otherwise, the planner hashes the tables and sorts the rows
     * with their rendered documents, which spills the whole table's text to disk.
     */
    private static final String SEALS_WITH_ROWS_AFTER = "SELECT r.*, s.seq, s.audit_id, s.previous_hash, s.hash"
            + " FROM (SELECT seq, audit_id, audited_at, previous_hash, hash FROM claimguard.audit_seal"
            + " WHERE seq > ? AND seq <= ? ORDER BY seq) AS s"
            + " LEFT JOIN LATERAL (SELECT " + SealHash.ROW_PART + """
                FROM claimguard.verification_audit AS a WHERE a.id = s.audit_id AND a.audited_at = s.audited_at
                OFFSET 0) AS r ON true
            ORDER BY s.seq
            """;

    /** The claim checks of the same seals' rows, keyed and ordered by seal seq, then ordinal. */
    private static final String CLAIMS_AFTER = "SELECT s.seq, " + SealHash.CLAIM_PART + """
            FROM claimguard.audit_seal AS s
            JOIN claimguard.claim_check AS c ON c.audit_id = s.audit_id AND c.audited_at = s.audited_at
            WHERE s.seq > ? AND s.seq <= ?
            """ + "%s" + " ORDER BY s.seq, c.ordinal";

    /** The findings of the same seals' rows, keyed and ordered by seal seq, then ordinal. */
    private static final String FINDINGS_AFTER = "SELECT s.seq, " + SealHash.FINDING_PART + """
            FROM claimguard.audit_seal AS s
            JOIN claimguard.finding AS f ON f.audit_id = s.audit_id AND f.audited_at = s.audited_at
            WHERE s.seq > ? AND s.seq <= ?
            """ + "%s" + " ORDER BY s.seq, f.ordinal";

    /**
     * For a walk after a seal (the rows of a day after a checkpoint): the children read only within the audit ids of its
     * seals, which the join implies, so that the planner reads a range of the children's primary key instead of hashing
     * the whole table (0.59 -> 0.30 s of server CPU for the claim checks of the last 5 % of 100,000 seals). Not for the
     * whole chain, where the hash join is the cheaper plan (1.15 against 2.00 s).
     */
    private static final String WITHIN_IDS = """
              AND %1$s.audit_id >= (SELECT min(audit_id) FROM claimguard.audit_seal WHERE seq > ? AND seq <= ?)
              AND %1$s.audit_id <= (SELECT max(audit_id) FROM claimguard.audit_seal WHERE seq > ? AND seq <= ?)
            """;

    private static final String SEQ_RANGE = "SELECT min(seq), max(seq) FROM claimguard.audit_seal WHERE seq > ?";

    /** A walk over fewer seals than this is not split: the parts' connections and plans would cost more than they save. */
    private static final long PARALLEL_FROM = 20_000;

    /** The seal columns' position after the row's. */
    private static final int SEAL_COLUMNS = SealHash.ROW_PART_COLUMNS + 1;

    private static final String CONTENT_OF = "SELECT " + SealHash.CONTENT_COLUMNS + """
            FROM claimguard.verification_audit AS a
            WHERE a.id = ANY (?)
            """;

    private static final String HASH_OF_SEAL = "SELECT hash FROM claimguard.audit_seal WHERE seq = ?";

    /**
     * Rows without a seal, as the difference of two counts that the primary key and the seals' audit_id key answer
     * (an anti-join of the two tables costs more); exact while every seal's row exists, which the walk checks.
     */
    private static final String UNSEALED_COUNT = """
            SELECT (SELECT count(*) FROM claimguard.verification_audit) - (SELECT count(*) FROM claimguard.audit_seal)
            """;

    /** The newest two seals, newest first. */
    private static final String HEAD_SEALS = """
            SELECT seq, audit_id, previous_hash, hash FROM claimguard.audit_seal
            ORDER BY seq DESC
            LIMIT 2
            """;

    private AuditChainVerifier() {
    }

    /**
     * Checks the head link only, in constant time however long the chain: the newest seal follows the one before it
     * and its row still gives its hash. It sees a tampered newest row or a removed newest seal, not a change further
     * back: that takes {@link #verify}. Returns the broken link as {@link #verify} names it, or null when intact (or
     * nothing is sealed yet).
     */
    public static String headLinkBreak(Connection connection) throws SQLException {
        List<StoredSeal> head = new ArrayList<>(2);
        try (PreparedStatement query = connection.prepareStatement(HEAD_SEALS); ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                head.add(storedSeal(rs));
            }
        }
        if (head.isEmpty()) {
            return null;
        }
        StoredSeal newest = head.get(0);
        StoredSeal before = head.size() > 1 ? head.get(1) : null;
        return brokenLink(newest, before, recomputedHashes(connection, List.of(newest)).get(newest.auditId()));
    }

    /** Opens one more connection to the same database: for the parts of a long walk verified side by side. */
    @FunctionalInterface
    public interface MoreConnections {
        Connection open() throws SQLException;
    }

    /** Verifies the whole chain, from its first seal, over this one connection. */
    public static ChainReport verify(Connection connection) throws SQLException {
        return verify(connection, null);
    }

    /**
     * Verifies the whole chain, from its first seal; a long chain in {@link #parts()} parts side by side, each over a
     * connection of its own in the same snapshot.
     *
     * @param more opens the parts' connections; null for one connection
     */
    public static ChainReport verify(Connection connection, MoreConnections more) throws SQLException {
        return verify(connection, more, PARALLEL_FROM);
    }

    /** @param splitFrom the shortest seq range walked in parts: the test's, to split a short chain */
    static ChainReport verify(Connection connection, MoreConnections more, long splitFrom) throws SQLException {
        return inSnapshot(connection, () -> walkChain(connection, more, splitFrom, null, null));
    }

    /**
     * Verifies the seals after a trusted one (the head of a signed checkpoint): that seal must still have the trusted
     * hash, and every seal after it link to the one before and give its row's hash. The seals up to the trusted one
     * are taken as the signature vouches for them; {@link #verify} checks them.
     *
     * @param trusted how the output names the trusted seal, e.g. the checkpoint it is the head of
     */
    public static ChainReport verifyAfter(Connection connection, long trustedSeq, byte[] trustedHash, String trusted)
            throws SQLException {
        return verifyAfter(connection, null, trustedSeq, trustedHash, trusted);
    }

    /** {@link #verifyAfter(Connection, long, byte[], String)}, a long walk in parts as {@link #verify(Connection, MoreConnections)}. */
    public static ChainReport verifyAfter(Connection connection, MoreConnections more, long trustedSeq,
            byte[] trustedHash, String trusted) throws SQLException {
        return inSnapshot(connection, () -> {
            byte[] stored = hashOfSeal(connection, trustedSeq);
            if (!Arrays.equals(stored, trustedHash)) {
                String problem = stored == null ? "seal seq %d, the head of %s, is gone".formatted(trustedSeq, trusted)
                        : "seal seq %d has another hash than %s: the chain was rewritten and re-hashed at or before it"
                                .formatted(trustedSeq, trusted);
                return ChainReport.broken(problem, 0, unsealedCount(connection), null, "seal seq " + trustedSeq);
            }
            return walkChain(connection, more, PARALLEL_FROM, new StoredSeal(trustedSeq, 0, null, trustedHash),
                    "seal seq " + trustedSeq);
        });
    }

    /**
     * Verifies the live seals after the last archived one (claimguard archive): the first live seal must link to the
     * archived hash, and every seal after it to the one before and give its row's hash. The archived seals are the
     * archives' own verification's.
     *
     * @param archived how the output names the last archived seal, e.g. the archive file
     */
    public static ChainReport verifyAfterArchive(Connection connection, long archivedSeq, byte[] archivedHash,
            String archived) throws SQLException {
        return verifyAfterArchive(connection, null, archivedSeq, archivedHash, archived);
    }

    /** {@link #verifyAfterArchive(Connection, long, byte[], String)}, a long walk in parts. */
    public static ChainReport verifyAfterArchive(Connection connection, MoreConnections more, long archivedSeq,
            byte[] archivedHash, String archived) throws SQLException {
        return inSnapshot(connection, () -> walkChain(connection, more, PARALLEL_FROM,
                new StoredSeal(archivedSeq, 0, null, archivedHash), "seal seq " + archivedSeq + ", the last of " + archived));
    }

    private interface Walk {
        ChainReport run() throws SQLException;
    }

    /** One read-only REPEATABLE READ transaction (which also lets the driver read through a cursor). */
    private static ChainReport inSnapshot(Connection connection, Walk walk) throws SQLException {
        connection.setReadOnly(true);
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            return walk.run();
        } finally {
            connection.rollback();
        }
    }

    /**
     * Walks the seals after {@code start} (null: from the chain's first): in one part, or, when {@code more} is given and
     * the seq range is long, in {@link #parts()} consecutive seq ranges side by side, the first over this connection and
     * each other over a connection of its own that imports this transaction's snapshot, so that every part sees the same
     * chain. Each part checks its seals' rows and the links within it; the links between parts and the first break in
     * seq order are put together here, so the report is the one-part walk's.
     */
    private static ChainReport walkChain(Connection connection, MoreConnections more, long splitFrom,
            StoredSeal start, String startedAfter) throws SQLException {
        long after = start == null ? Long.MIN_VALUE : start.seq();
        List<Part> parts = new ArrayList<>();
        long[] range = more == null || parts() < 2 ? null : seqRange(connection, after);
        if (range == null || range[1] - range[0] < splitFrom) {
            parts.add(walkPart(connection, after, Long.MAX_VALUE, start != null));
        } else {
            parts.addAll(walkInParts(connection, more, after, range[0], range[1], start != null));
        }
        long verified = 0;
        StoredSeal previous = start;
        for (Part part : parts) {
            if (part.first() == null) {
                continue;
            }
            Long lastIntact = previous == null || previous == start ? null : previous.seq();
            String link = linkBreak(part.first(), previous);
            if (link != null) {
                return ChainReport.broken(link, verified, unsealedCount(connection), lastIntact, startedAfter);
            }
            if (part.broken() != null) {
                return ChainReport.broken(part.broken(), verified + part.verified(), unsealedCount(connection),
                        part.lastIntact() != null ? part.lastIntact() : lastIntact, startedAfter);
            }
            verified += part.verified();
            previous = part.last();
        }
        long unsealed = unsealedCount(connection);
        return previous == null || previous == start ? ChainReport.empty(unsealed, startedAfter)
                : ChainReport.intact(verified, unsealed, previous.seq(), SealHash.hex(previous.hash()), startedAfter);
    }

    /** How many parts a long walk is split into: one per processor, at most four. */
    static int parts() {
        return Math.min(4, Runtime.getRuntime().availableProcessors());
    }

    /** The lowest and highest seq after {@code after}; null when there is none. */
    private static long[] seqRange(Connection connection, long after) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(SEQ_RANGE)) {
            query.setLong(1, after);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                long lowest = rs.getLong(1);
                return rs.wasNull() ? null : new long[] {lowest, rs.getLong(2)};
            }
        }
    }

    private static List<Part> walkInParts(Connection connection, MoreConnections more, long after, long lowest,
            long highest, boolean withinIds) throws SQLException {
        String snapshot;
        try (PreparedStatement export = connection.prepareStatement("SELECT pg_export_snapshot()");
                ResultSet rs = export.executeQuery()) {
            rs.next();
            snapshot = rs.getString(1);
        }
        int count = parts();
        long[] bounds = new long[count + 1];
        bounds[0] = after;
        for (int i = 1; i < count; i++) {
            bounds[i] = lowest - 1 + (highest - lowest + 1) * i / count;
        }
        bounds[count] = Long.MAX_VALUE;
        List<CompletableFuture<Part>> others = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(count - 1);
        try {
            for (int i = 1; i < count; i++) {
                long from = bounds[i];
                long to = bounds[i + 1];
                others.add(CompletableFuture.supplyAsync(() -> walkPartInSnapshot(more, snapshot, from, to, withinIds),
                        pool));
            }
            List<Part> parts = new ArrayList<>();
            parts.add(walkPart(connection, bounds[0], bounds[1], withinIds));
            for (CompletableFuture<Part> other : others) {
                parts.add(other.join());
            }
            return parts;
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedSql sql) {
                throw sql.getCause();
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Part walkPartInSnapshot(MoreConnections more, String snapshot, long after, long through,
            boolean withinIds) {
        try (Connection connection = more.open()) {
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                try (PreparedStatement imported = connection.prepareStatement(
                        "SET TRANSACTION SNAPSHOT '" + snapshot.replace("'", "''") + "'")) {
                    // the snapshot's name comes from pg_export_snapshot, never from outside; SET takes no parameter
                    imported.execute();
                }
                return walkPart(connection, after, through, withinIds);
            } finally {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new UncheckedSql(e);
        }
    }

    private static final class UncheckedSql extends RuntimeException {
        UncheckedSql(SQLException cause) {
            super(cause);
        }

        @Override
        public synchronized SQLException getCause() {
            return (SQLException) super.getCause();
        }
    }

    /**
     * What one part of a walk found: its first and last seal (null when it has none), the seals it found intact before
     * its first break, that break (null when none) and the last intact seal before it within the part (null when the
     * break is at its first seal). The link of its first seal to the seal before it is the caller's to check.
     */
    private record Part(StoredSeal first, StoredSeal last, long verified, String broken, Long lastIntact) {
    }

    /**
     * Reads the seals after {@code after} through {@code through} with their rows, and their rows' claim checks and
     * findings, as three cursors open side by side, each in seal order: constant memory, and no array built per row.
     *
     * @param withinIds whether the children are read within the seals' audit ids ({@link #WITHIN_IDS}): for a walk after
     *     a seal, not for the whole chain
     */
    private static Part walkPart(Connection connection, long after, long through, boolean withinIds)
            throws SQLException {
        long verified = 0;
        StoredSeal first = null;
        StoredSeal previous = null;
        try (PreparedStatement rowQuery = cursor(connection, SEALS_WITH_ROWS_AFTER, after, through, FETCH_SIZE, false);
                PreparedStatement claimQuery = cursor(connection, CLAIMS_AFTER.formatted(withinIds
                        ? WITHIN_IDS.formatted("c") : ""), after, through, CHILD_FETCH_SIZE, withinIds);
                PreparedStatement findingQuery = cursor(connection, FINDINGS_AFTER.formatted(withinIds
                        ? WITHIN_IDS.formatted("f") : ""), after, through, CHILD_FETCH_SIZE, withinIds);
                ResultSet rs = rowQuery.executeQuery();
                ResultSet claims = claimQuery.executeQuery();
                ResultSet findings = findingQuery.executeQuery()) {
            SealHash.SplitContent content = new SealHash.SplitContent(claims, findings);
            while (rs.next()) {
                StoredSeal seal = new StoredSeal(rs.getLong(SEAL_COLUMNS), rs.getLong(SEAL_COLUMNS + 1),
                        rs.getBytes(SEAL_COLUMNS + 2), rs.getBytes(SEAL_COLUMNS + 3));
                byte[] recomputed;
                if (rs.getString(1) == null) {
                    content.skipTo(seal.seq());
                    recomputed = null;
                } else {
                    recomputed = content.link(seal.previousHash(), rs, seal.seq());
                }
                String broken = first == null ? null : linkBreak(seal, previous);
                if (broken == null) {
                    broken = contentBreak(seal, recomputed);
                }
                if (first == null) {
                    first = seal;
                }
                if (broken != null) {
                    return new Part(first, seal, verified, broken, previous == null ? null : previous.seq());
                }
                previous = seal;
                verified++;
            }
        }
        return new Part(first, previous, verified, null, null);
    }

    /** @param withinIds whether the query has {@link #WITHIN_IDS}, with the same range twice more */
    private static PreparedStatement cursor(Connection connection, String sql, long after, long through, int fetchSize,
            boolean withinIds) throws SQLException {
        PreparedStatement query = connection.prepareStatement(sql);
        for (int parameter = 1; parameter <= (withinIds ? 6 : 2); parameter += 2) {
            query.setLong(parameter, after);
            query.setLong(parameter + 1, through);
        }
        query.setFetchSize(fetchSize);
        return query;
    }

    /** What is wrong with this seal, given the one before it and the hash its row gives now; null when nothing. */
    private static String brokenLink(StoredSeal seal, StoredSeal previous, byte[] recomputed) {
        String link = linkBreak(seal, previous);
        return link != null ? link : contentBreak(seal, recomputed);
    }

    /** Whether this seal follows the one before it (null: the chain's start); null when it does. */
    private static String linkBreak(StoredSeal seal, StoredSeal previous) {
        byte[] expectedPrevious = previous == null ? SealHash.GENESIS : previous.hash();
        if (!Arrays.equals(seal.previousHash(), expectedPrevious)) {
            return previous == null
                    ? "seal seq %d: previous_hash does not match the start of the chain".formatted(seal.seq())
                    : "seal seq %d: previous_hash does not match seal %d".formatted(seal.seq(), previous.seq());
        }
        return null;
    }

    /** Whether the seal's row still exists and gives its hash now; null when it does. */
    private static String contentBreak(StoredSeal seal, byte[] recomputed) {
        if (recomputed == null) {
            return "seal seq %d references audit_id %d, which is gone".formatted(seal.seq(), seal.auditId());
        }
        if (!Arrays.equals(recomputed, seal.hash())) {
            return "audit_id=%d: content altered (stored hash %s, recomputed %s)"
                    .formatted(seal.auditId(), SealHash.hex(seal.hash()), SealHash.hex(recomputed));
        }
        return null;
    }

    /**
     * For each seal's row that still exists: the hash its content gives now after the seal's own previous_hash.
     * Only the hashes are kept; rows are read a few at a time, as they can be large.
     */
    private static Map<Long, byte[]> recomputedHashes(Connection connection, List<StoredSeal> seals) throws SQLException {
        Map<Long, byte[]> previousHashes = new HashMap<>();
        for (StoredSeal seal : seals) {
            previousHashes.put(seal.auditId(), seal.previousHash());
        }
        Map<Long, byte[]> recomputed = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(CONTENT_OF)) {
            query.setArray(1, connection.createArrayOf("bigint", previousHashes.keySet().toArray()));
            query.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    long auditId = SealHash.auditId(rs);
                    recomputed.put(auditId, SealHash.link(previousHashes.get(auditId), SealHash.content(rs)));
                }
            }
        }
        return recomputed;
    }

    private static StoredSeal storedSeal(ResultSet rs) throws SQLException {
        return new StoredSeal(rs.getLong(1), rs.getLong(2), rs.getBytes(3), rs.getBytes(4));
    }

    private static byte[] hashOfSeal(Connection connection, long seq) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(HASH_OF_SEAL)) {
            query.setLong(1, seq);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }
    }

    private static long unsealedCount(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(UNSEALED_COUNT); ResultSet rs = query.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private record StoredSeal(long seq, long auditId, byte[] previousHash, byte[] hash) {
    }
}
