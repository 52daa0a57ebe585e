package io.claimguard.checkpoint;

import io.claimguard.merkle.Rfc6962;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The leaves of the Merkle tree over the audit chain: the seals of {@code claimguard.audit_seal} in seq order, each
 * leaf's data the seal's 32-byte hash (which covers its row's content and every seal before it). The leaf at index
 * i is the (i+1)-th seal in seq order; seq itself may have gaps (a sealing transaction that rolled back).
 */
public final class SealLeaves {

    private static final int PAGE_SIZE = 10_000;

    private static final String SEALS_AFTER = """
            SELECT seq, hash FROM claimguard.audit_seal
            WHERE seq > ?
            ORDER BY seq
            LIMIT ?
            """;

    private SealLeaves() {
    }

    /** One seal as a leaf. */
    public record Leaf(long seq, byte[] sealHash) {

        public byte[] leafHash() {
            return Rfc6962.leafHash(sealHash);
        }
    }

    /** Receives the leaves in order; returns false to stop reading. */
    @FunctionalInterface
    public interface LeafVisitor {
        boolean visit(Leaf leaf) throws SQLException;
    }

    /**
     * Reads the seals after {@code afterSeq} in seq order, a page at a time, until there are no more or the visitor
     * stops. Returns the seq of the last leaf read, or {@code afterSeq} when none.
     */
    public static long readAfter(Connection connection, long afterSeq, LeafVisitor visitor) throws SQLException {
        long last = afterSeq;
        try (PreparedStatement query = connection.prepareStatement(SEALS_AFTER)) {
            while (true) {
                query.setLong(1, last);
                query.setInt(2, PAGE_SIZE);
                int read = 0;
                try (ResultSet rs = query.executeQuery()) {
                    while (rs.next()) {
                        read++;
                        Leaf leaf = new Leaf(rs.getLong(1), rs.getBytes(2));
                        last = leaf.seq();
                        if (!visitor.visit(leaf)) {
                            return last;
                        }
                    }
                }
                if (read < PAGE_SIZE) {
                    return last;
                }
            }
        }
    }
}
