package io.claimguard.seal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * One verify-chain run as {@code claimguard.chain_verification} keeps it, so that status can say how far the chain
 * was verified, when and from which signed checkpoint without recomputing it.
 *
 * @param verifiedAt when it was recorded; null before it is
 * @param mode {@code full} (every seal from the chain's start) or {@code incremental} (the seals after a signed
 *     checkpoint's head)
 * @param fromSeq the walk began after this seal; null at the chain's start
 * @param throughSeq the last seal found intact; null when none was
 * @param checkpointSize the size of the signed checkpoint an incremental run started from; else null
 * @param checkpointHeadSeq that checkpoint's head seal
 */
public record ChainVerification(Instant verifiedAt, String mode, Long fromSeq, Long throughSeq, long sealsVerified,
        boolean intact, String firstBreak, Long checkpointSize, Long checkpointHeadSeq) {

    private static final String RECORD = """
            INSERT INTO claimguard.chain_verification (mode, from_seq, through_seq, seals_verified, intact, first_break,
                checkpoint_size, checkpoint_head_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """;

    /** The newest run, by the primary key. */
    private static final String NEWEST = """
            SELECT verified_at, mode, from_seq, through_seq, seals_verified, intact, first_break, checkpoint_size,
                   checkpoint_head_seq
            FROM claimguard.chain_verification
            ORDER BY id DESC
            LIMIT 1
            """;

    /**
     * What a walk of the chain found, after the seal {@code fromSeq} (null: from the start).
     *
     * @param checkpointProblem the first checkpoint that did not hold; null when all did (or none was checked)
     */
    public static ChainVerification of(ChainReport report, String checkpointProblem, Long fromSeq, Long checkpointSize,
            Long checkpointHeadSeq) {
        String firstBreak = report.intact() ? checkpointProblem : report.firstBreak();
        return new ChainVerification(null, checkpointSize == null ? "full" : "incremental", fromSeq,
                report.lastIntactSeq(), report.verifiedSeals(), firstBreak == null, firstBreak, checkpointSize,
                checkpointHeadSeq);
    }

    /** Adds this run to the table, committed on its own. */
    public void record(Connection connection) throws SQLException {
        connection.setReadOnly(false);
        connection.setAutoCommit(true);
        try (PreparedStatement insert = connection.prepareStatement(RECORD)) {
            insert.setString(1, mode);
            setLong(insert, 2, fromSeq);
            setLong(insert, 3, throughSeq);
            insert.setLong(4, sealsVerified);
            insert.setBoolean(5, intact);
            insert.setString(6, firstBreak);
            setLong(insert, 7, checkpointSize);
            setLong(insert, 8, checkpointHeadSeq);
            insert.executeUpdate();
        }
    }

    /** The newest recorded run; null when verify-chain never recorded one. */
    public static ChainVerification newest(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(NEWEST); ResultSet rs = query.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            return new ChainVerification(rs.getObject(1, OffsetDateTime.class).toInstant(), rs.getString(2),
                    rs.getObject(3, Long.class), rs.getObject(4, Long.class), rs.getLong(5), rs.getBoolean(6),
                    rs.getString(7), rs.getObject(8, Long.class), rs.getObject(9, Long.class));
        }
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }
}
