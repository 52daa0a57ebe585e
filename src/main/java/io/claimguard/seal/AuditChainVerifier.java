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

    private static final int PAGE_SIZE = 500;
    private static final int FETCH_SIZE = 50;

    private static final String SEALS_AFTER = """
            SELECT seq, audit_id, previous_hash, hash FROM claimguard.audit_seal
            WHERE seq > ?
            ORDER BY seq
            LIMIT ?
            """;

    private static final String CONTENT_OF = "SELECT " + SealHash.CONTENT_COLUMNS + """
            FROM claimguard.verification_audit AS a
            WHERE a.id = ANY (?)
            """;

    private static final String UNSEALED_COUNT = """
            SELECT count(*) FROM claimguard.verification_audit AS a
            WHERE NOT EXISTS (SELECT 1 FROM claimguard.audit_seal AS s WHERE s.audit_id = a.id)
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

    public static ChainReport verify(Connection connection) throws SQLException {
        connection.setReadOnly(true);
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            return walkChain(connection);
        } finally {
            connection.rollback();
        }
    }

    private static ChainReport walkChain(Connection connection) throws SQLException {
        long verified = 0;
        StoredSeal previous = null;
        List<StoredSeal> page = sealsAfter(connection, Long.MIN_VALUE);
        while (!page.isEmpty()) {
            Map<Long, byte[]> recomputed = recomputedHashes(connection, page);
            for (StoredSeal seal : page) {
                String broken = brokenLink(seal, previous, recomputed.get(seal.auditId()));
                if (broken != null) {
                    return ChainReport.broken(broken, verified, unsealedCount(connection));
                }
                previous = seal;
                verified++;
            }
            page = sealsAfter(connection, previous.seq());
        }
        long unsealed = unsealedCount(connection);
        return previous == null ? ChainReport.empty(unsealed)
                : ChainReport.intact(verified, unsealed, previous.seq(), SealHash.hex(previous.hash()));
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

    private static List<StoredSeal> sealsAfter(Connection connection, long seq) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(SEALS_AFTER)) {
            query.setLong(1, seq);
            query.setInt(2, PAGE_SIZE);
            List<StoredSeal> seals = new ArrayList<>(PAGE_SIZE);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    seals.add(storedSeal(rs));
                }
            }
            return seals;
        }
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

    private static long unsealedCount(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(UNSEALED_COUNT); ResultSet rs = query.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private record StoredSeal(long seq, long auditId, byte[] previousHash, byte[] hash) {
    }
}
