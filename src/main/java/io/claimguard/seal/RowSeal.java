package io.claimguard.seal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Arrays;

/**
 * The seal of one audit row and whether it verifies: the row's content as it is now (the row, its claim checks and its
 * findings, as {@link SealHash} defines it) still gives the seal's hash after the seal's previous_hash, and that
 * previous_hash is the hash of the seal before it in seq order (the chain's start for the first). Unlike
 * {@link AuditChainVerifier#verify}, it reads only this row, its seal and the seal before: a check for one row on a
 * page, not of the chain. Needs only to read schema claimguard ({@code claimguard_reader}).
 */
public final class RowSeal {

    /** What became of one row's seal. */
    public enum Status {
        /** the row has no seal yet (it is newer than the sealer's last round) */
        NOT_SEALED,
        /** sealed, and its content and link give the stored hash */
        VERIFIES,
        /** sealed, but its content or its link to the seal before no longer gives the stored hash */
        DOES_NOT_VERIFY
    }

    /**
     * @param seq the seal's seq, null when not sealed
     * @param sealedAt when it was sealed, null when not sealed
     * @param hash the stored hash in hex, null when not sealed
     */
    public record Check(Status status, Long seq, OffsetDateTime sealedAt, String hash) {
    }

    private static final String SEAL_OF = """
            SELECT s.seq, s.previous_hash, s.hash, s.sealed_at,
                   (SELECT p.hash FROM claimguard.audit_seal AS p WHERE p.seq < s.seq ORDER BY p.seq DESC LIMIT 1)
            FROM claimguard.audit_seal AS s
            WHERE s.audit_id = ?
            """;

    private static final String CONTENT_OF = "SELECT " + SealHash.CONTENT_COLUMNS + """
            FROM claimguard.verification_audit AS a
            WHERE a.id = ?
            """;

    private RowSeal() {
    }

    public static Check check(Connection connection, long auditId) throws SQLException {
        long seq;
        byte[] previousHash;
        byte[] hash;
        byte[] hashBefore;
        OffsetDateTime sealedAt;
        try (PreparedStatement query = connection.prepareStatement(SEAL_OF)) {
            query.setLong(1, auditId);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    return new Check(Status.NOT_SEALED, null, null, null);
                }
                seq = rs.getLong(1);
                previousHash = rs.getBytes(2);
                hash = rs.getBytes(3);
                sealedAt = rs.getObject(4, OffsetDateTime.class);
                hashBefore = rs.getBytes(5);
            }
        }
        boolean linked = Arrays.equals(previousHash, hashBefore == null ? SealHash.GENESIS : hashBefore);
        boolean contentHolds = false;
        try (PreparedStatement query = connection.prepareStatement(CONTENT_OF)) {
            query.setLong(1, auditId);
            try (ResultSet rs = query.executeQuery()) {
                if (rs.next()) {
                    contentHolds = Arrays.equals(hash, SealHash.link(previousHash, SealHash.content(rs)));
                }
            }
        }
        Status status = linked && contentHolds ? Status.VERIFIES : Status.DOES_NOT_VERIFY;
        return new Check(status, seq, sealedAt, SealHash.hex(hash));
    }
}
