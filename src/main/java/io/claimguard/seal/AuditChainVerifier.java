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

/**
 * Recomputes the hash chain of {@code claimguard.audit_seal} from the audit rows as they are now, seal by seal in
 * seq order, and names the first broken link: a seal whose previous_hash is not the hash of the seal before (a
 * seal in between was removed, or this seal's previous_hash was altered), a seal whose audit row is gone, or a
 * row whose content (the row, its claim checks and its findings, as {@link SealHash} defines it) no longer gives its
 * seal's hash. It needs only to read schema claimguard
 * ({@code claimguard_reader}).
 *
 * <p>Everything is read in one read-only REPEATABLE READ transaction, so that the seals and rows the running
 * sealer adds meanwhile are either all seen or not at all.
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
            + " WHERE seq > ? ORDER BY seq) AS s"
            + " LEFT JOIN LATERAL (SELECT " + SealHash.ROW_PART + """
                FROM claimguard.verification_audit AS a WHERE a.id = s.audit_id AND a.audited_at = s.audited_at
                OFFSET 0) AS r ON true
            ORDER BY s.seq
            """;

    /** The claim checks of the same seals' rows, keyed and ordered by seal seq, then ordinal. */
    private static final String CLAIMS_AFTER = "SELECT s.seq, " + SealHash.CLAIM_PART + """
            FROM claimguard.audit_seal AS s
            JOIN claimguard.claim_check AS c ON c.audit_id = s.audit_id AND c.audited_at = s.audited_at
            WHERE s.seq > ?
            ORDER BY s.seq, c.ordinal
            """;

    /** The findings of the same seals' rows, keyed and ordered by seal seq, then ordinal. */
    private static final String FINDINGS_AFTER = "SELECT s.seq, " + SealHash.FINDING_PART + """
            FROM claimguard.audit_seal AS s
            JOIN claimguard.finding AS f ON f.audit_id = s.audit_id AND f.audited_at = s.audited_at
            WHERE s.seq > ?
            ORDER BY s.seq, f.ordinal
            """;

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

    /** Verifies the whole chain, from its first seal. */
    public static ChainReport verify(Connection connection) throws SQLException {
        return inSnapshot(connection, () -> walkChain(connection, null, null));
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
        return inSnapshot(connection, () -> {
            byte[] stored = hashOfSeal(connection, trustedSeq);
            if (!Arrays.equals(stored, trustedHash)) {
                String problem = stored == null ? "seal seq %d, the head of %s, is gone".formatted(trustedSeq, trusted)
                        : "seal seq %d has another hash than %s: the chain was rewritten and re-hashed at or before it"
                                .formatted(trustedSeq, trusted);
                return ChainReport.broken(problem, 0, unsealedCount(connection), null, "seal seq " + trustedSeq);
            }
            return walkChain(connection, new StoredSeal(trustedSeq, 0, null, trustedHash), "seal seq " + trustedSeq);
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
        return inSnapshot(connection, () -> walkChain(connection, new StoredSeal(archivedSeq, 0, null, archivedHash),
                "seal seq " + archivedSeq + ", the last of " + archived));
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
     * Reads the seals with their rows, and their rows' claim checks and findings, as three cursors open side by side in
     * the snapshot, each in seal order: constant memory, and no array built per row.
     *
     * @param start the seal the walk begins after; null at the chain's start
     */
    private static ChainReport walkChain(Connection connection, StoredSeal start, String startedAfter)
            throws SQLException {
        long verified = 0;
        StoredSeal previous = start;
        long after = start == null ? Long.MIN_VALUE : start.seq();
        try (PreparedStatement rowQuery = cursor(connection, SEALS_WITH_ROWS_AFTER, after, FETCH_SIZE);
                PreparedStatement claimQuery = cursor(connection, CLAIMS_AFTER, after, CHILD_FETCH_SIZE);
                PreparedStatement findingQuery = cursor(connection, FINDINGS_AFTER, after, CHILD_FETCH_SIZE);
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
                String broken = brokenLink(seal, previous, recomputed);
                if (broken != null) {
                    Long lastIntact = previous == null || previous == start ? null : previous.seq();
                    return ChainReport.broken(broken, verified, unsealedCount(connection), lastIntact, startedAfter);
                }
                previous = seal;
                verified++;
            }
        }
        long unsealed = unsealedCount(connection);
        return previous == null || previous == start ? ChainReport.empty(unsealed, startedAfter)
                : ChainReport.intact(verified, unsealed, previous.seq(), SealHash.hex(previous.hash()), startedAfter);
    }

    private static PreparedStatement cursor(Connection connection, String sql, long after, int fetchSize)
            throws SQLException {
        PreparedStatement query = connection.prepareStatement(sql);
        query.setLong(1, after);
        query.setFetchSize(fetchSize);
        return query;
    }

    /** What is wrong with this seal, given the one before it and the hash its row gives now; null when nothing. */
    private static String brokenLink(StoredSeal seal, StoredSeal previous, byte[] recomputed) {
        byte[] expectedPrevious = previous == null ? SealHash.GENESIS : previous.hash();
        if (!Arrays.equals(seal.previousHash(), expectedPrevious)) {
            return previous == null
                    ? "seal seq %d: previous_hash does not match the start of the chain".formatted(seal.seq())
                    : "seal seq %d: previous_hash does not match seal %d".formatted(seal.seq(), previous.seq());
        }
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
