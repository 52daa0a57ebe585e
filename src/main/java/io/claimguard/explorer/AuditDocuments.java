package io.claimguard.explorer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * An audit row's JSON documents (the envelope as stored, the effective result), pretty-printed, written to an answer as
 * they are read: PostgreSQL prints the document once and sends it in pieces of {@link #PIECE} bytes through a cursor,
 * so that the service holds a few pieces at a time however large the document, and an audit page never has to carry
 * it.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class AuditDocuments {

    /** The documents, by the name of their link ({@code /explorer/audits/{id}/<name>.json}). */
    enum Document {
        ENVELOPE("envelope", AuditReader.ENVELOPE),
        EFFECTIVE_RESULT("effective-result", AuditReader.RESULT);

        private final String name;
        private final String expression;

        Document(String name, String expression) {
            this.name = name;
            this.expression = expression;
        }

        String fileName(long auditId) {
            return "audit-" + auditId + "-" + name + ".json";
        }
    }

    static final int PIECE = 64 * 1024;

    /** Pieces fetched from the cursor at a time. */
    private static final int PIECES_PER_FETCH = 4;

    /**
     * The document's UTF-8 bytes from each offset on: printed once (the fence {@code OFFSET 0} keeps the subquery
     * from being computed again for every piece), then cut into pieces, in order.
     */
    private static final String PIECES = """
            SELECT g, substring(d.bytes FROM g FOR ?)
            FROM (SELECT convert_to(jsonb_pretty(%s), 'UTF8') AS bytes
                  FROM claimguard.verification_audit AS a WHERE a.id = ? OFFSET 0) AS d
            CROSS JOIN LATERAL generate_series(1, octet_length(d.bytes), ?) AS g
            """;

    private final JdbcTemplate sql;

    AuditDocuments(ExplorerDatabase database) {
        this.sql = database.sql();
    }

    boolean exists(long auditId) {
        return !sql.queryForList("SELECT 1 FROM claimguard.verification_audit WHERE id = ?", Integer.class, auditId)
                .isEmpty();
    }

    /** Writes the document to {@code out} as it is read; nothing when the audit row does not exist. */
    void write(long auditId, Document document, OutputStream out) {
        sql.execute((ConnectionCallback<Void>) connection -> {
            // PgJDBC reads through a cursor, a fetch at a time, only inside a transaction
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement pieces = connection.prepareStatement(PIECES.formatted(document.expression))) {
                pieces.setFetchSize(PIECES_PER_FETCH);
                pieces.setInt(1, PIECE);
                pieces.setLong(2, auditId);
                pieces.setInt(3, PIECE);
                try (ResultSet piece = pieces.executeQuery()) {
                    long offset = 1;
                    while (piece.next()) {
                        if (piece.getLong(1) != offset) {
                            throw new IllegalStateException("piece at " + piece.getLong(1) + " where " + offset
                                    + " was next, of audit " + auditId);
                        }
                        byte[] bytes = piece.getBytes(2);
                        out.write(bytes);
                        offset += bytes.length;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("the answer with " + document.fileName(auditId) + " broke off", e);
            } finally {
                connection.rollback();
                connection.setAutoCommit(autoCommit);
            }
            return null;
        });
    }
}
