package io.claimguard.checkpoint;

import io.claimguard.merkle.CompactRange;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * Where the archived seals end ({@code claimguard.audit_archive}, written by claimguard archive): the Merkle tree over
 * them as a compact range, and their last seal, so that a tree over the chain goes on after them without the dropped
 * seals.
 *
 * @param lastSeq the last archived seal's seq
 * @param lastHash its hash
 */
public record ArchivedTree(long lastSeq, byte[] lastHash, long size, byte[][] hashes) {

    private static final String NEWEST = """
            SELECT last_seq, last_hash, tree_size, compact_range FROM claimguard.audit_archive
            ORDER BY last_seq DESC
            LIMIT 1
            """;

    /** The newest archive's tree; null when nothing was archived. */
    public static ArchivedTree newest(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(NEWEST); ResultSet rs = query.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            Array range = rs.getArray(4);
            byte[][] hashes = (byte[][]) range.getArray();
            range.free();
            return new ArchivedTree(rs.getLong(1), rs.getBytes(2), rs.getLong(3), hashes);
        }
    }

    /** A compact range to go on from. */
    public CompactRange tree() {
        return CompactRange.resume(size, Arrays.asList(hashes));
    }
}
