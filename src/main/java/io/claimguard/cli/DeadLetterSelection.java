package io.claimguard.cli;

import io.claimguard.domain.RejectionReason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The dead letters an operator selects for re-drive: every kind of selector given narrows the selection (ids, reason
 * codes, a time range on {@code received_at}); several values of one kind are alternatives.
 *
 * @param ids dead_letter ids; empty for any
 * @param reasonCodes reason codes; empty for any
 * @param since the earliest {@code received_at} (inclusive); null for no bound
 * @param until the latest {@code received_at} (exclusive); null for no bound
 */
record DeadLetterSelection(List<Long> ids, List<String> reasonCodes, Instant since, Instant until) {

    private static final String SELECT = """
            SELECT d.id, d.reason_code, d.reason, d.received_at,
                   -- a truncated payload cannot be re-driven: its bytes are not read at all
                   CASE WHEN d.payload_truncated THEN NULL ELSE d.payload END, d.payload_size, d.source, d.source_ref,
                   (SELECT min(a.id) FROM claimguard.verification_audit a WHERE a.redrive_of = d.id),
                   (SELECT max(n.id) FROM claimguard.dead_letter n WHERE n.redrive_of = d.id)
            FROM claimguard.dead_letter d
            WHERE (cardinality(CAST(? AS bigint[])) = 0 OR d.id = ANY (CAST(? AS bigint[])))
              AND (cardinality(CAST(? AS text[])) = 0 OR d.reason_code = ANY (CAST(? AS text[])))
              AND (CAST(? AS timestamptz) IS NULL OR d.received_at >= CAST(? AS timestamptz))
              AND (CAST(? AS timestamptz) IS NULL OR d.received_at < CAST(? AS timestamptz))
            ORDER BY d.id
            """;

    /**
     * One selected dead letter, and what became of its latest re-drive.
     *
     * @param payload its bytes as kept; null when the row keeps only their start ({@code payload_truncated})
     * @param payloadSize the whole input's size
     * @param auditedAs the audit row an earlier re-drive made; null if none
     * @param deadLetteredAgainAs the newest dead letter an earlier re-drive made; null if none
     */
    record Selected(long id, String reasonCode, String reason, OffsetDateTime receivedAt, byte[] payload,
            long payloadSize, String source, String sourceRef, Long auditedAs, Long deadLetteredAgainAs) {

        /** How the dead letter is named in every line the command prints. */
        String label() {
            return "dead_letter " + id;
        }

        /**
         * Why an earlier re-drive makes this one pointless, or null. A dead letter dead-lettered again is stood for by
         * its newer row: re-driving both would send the same bytes twice and, while the cause lasts, double the rows
         * at every re-drive by reason or time.
         */
        String earlierRedrive() {
            if (auditedAs != null) {
                return "re-driven before and audited as audit_id " + auditedAs;
            }
            if (deadLetteredAgainAs != null) {
                return "re-driven before and dead-lettered again as dead_letter " + deadLetteredAgainAs
                        + " (re-drive that one)";
            }
            return null;
        }

        /**
         * Why it cannot be re-driven from its row, and where its whole bytes are, or null when it can: a row that keeps
         * only the first bytes of a huge input would send a different, cut input; the row of an inbox entry that was not
         * a regular file holds nothing, since nothing was read.
         */
        String notWhole() {
            if (RejectionReason.FILE_TYPE_UNSUPPORTED.code().equals(reasonCode)) {
                return "it was an inbox entry that is not a regular file (" + reasonCode + "): nothing was read, so there"
                        + " is nothing to send; the entry is in the inbox's .error/ folder (" + sourceRef + ", or a"
                        + " numbered name whose .reason file says received_at: " + receivedAt.toInstant() + ")";
            }
            if (payload != null) {
                return null;
            }
            String copy = switch (source) {
                case "file" -> "the inbox's .error/ folder (file " + sourceRef + ", or a numbered name whose .reason file"
                        + " says received_at: " + receivedAt.toInstant() + ")";
                case "jms" -> "the dead-letter queue (JMS message id " + sourceRef + ")";
                case "kafka" -> "the dead-letter topic (the record from " + sourceRef + ")";
                default -> "where its " + source + " intake set it aside";
            };
            return "its row keeps only the first bytes of its " + payloadSize + " (payload_truncated); the whole input"
                    + " is in " + copy + ": send it from there once its cause is fixed";
        }
    }

    /** The selected dead letters, in id order. */
    List<Selected> read(Connection connection) throws SQLException {
        List<Selected> selected = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            Object idArray = connection.createArrayOf("bigint", ids.toArray(Long[]::new));
            Object reasonArray = connection.createArrayOf("text", reasonCodes.toArray(String[]::new));
            OffsetDateTime from = since == null ? null : since.atOffset(ZoneOffset.UTC);
            OffsetDateTime to = until == null ? null : until.atOffset(ZoneOffset.UTC);
            Object[] values = {idArray, idArray, reasonArray, reasonArray, from, from, to, to};
            for (int i = 0; i < values.length; i++) {
                select.setObject(i + 1, values[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    selected.add(new Selected(rows.getLong(1), rows.getString(2), rows.getString(3),
                            rows.getObject(4, OffsetDateTime.class), rows.getBytes(5), rows.getLong(6), rows.getString(7),
                            rows.getString(8), rows.getObject(9, Long.class), rows.getObject(10, Long.class)));
                }
            }
        }
        return selected;
    }
}
