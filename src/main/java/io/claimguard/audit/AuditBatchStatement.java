package io.claimguard.audit;

import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.Finding;
import io.claimguard.domain.ProjectedClaim;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Writes a batch of audit records with the statements of {@link AuditSql}, on a connection whose transaction the
 * caller commits, and reads back one {@link Outcome} per record: the input's keys (ids from the sequence in the same
 * statement), the audit rows with their documents made here, then all claim checks and all findings of the batch in
 * one statement each.
 */
final class AuditBatchStatement {

    private static final HexFormat HEX = HexFormat.of();
    /** Audit rows per statement: 16 parameters each, under the protocol's 65,535 (a batch is 128 by default). */
    private static final int AUDIT_ROWS_PER_STATEMENT = 1_000;

    /**
     * What became of one record.
     *
     * @param auditId its audit row's id, or the earlier row of identical bytes
     * @param created whether this batch created the row (false for an input audited before)
     * @param redriveOf the dead letter the created row records it was re-driven from; null for an input audited
     *     before, and for a re-drive naming no dead letter
     */
    record Outcome(long auditId, boolean created, Long redriveOf) {
    }

    private AuditBatchStatement() {
    }

    /** Inserts the records' rows (not committed) and returns their outcomes, in order. */
    static List<Outcome> write(Connection connection, List<AuditRecord> records) throws SQLException {
        int count = records.size();
        String[] shas = new String[count];
        for (int i = 0; i < count; i++) {
            shas[i] = HEX.formatHex(records.get(i).inputSha256());
        }
        Map<String, Long> created = keys(connection, AuditSql.INSERT_KEYS, shas);
        // the first of identical inputs owns the created key; the others, and inputs audited before, refer to it
        Map<String, Integer> owner = new HashMap<>();
        List<Integer> fresh = new ArrayList<>(count);
        List<String> earlier = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean first = owner.putIfAbsent(shas[i], i) == null;
            if (first && created.containsKey(shas[i])) {
                fresh.add(i);
            } else if (first) {
                earlier.add(shas[i]);
            }
        }
        Map<String, Long> existing = earlier.isEmpty() ? Map.of()
                : keys(connection, AuditSql.EARLIER_KEYS, earlier.toArray(String[]::new));
        Map<Long, Long> redrives = insertAudits(connection, records, fresh, created, shas);
        insertClaimChecks(connection, records, fresh, created, shas);
        insertFindings(connection, records, fresh, created, shas);

        List<Outcome> outcomes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Long own = owner.get(shas[i]) == i ? created.get(shas[i]) : null;
            if (own != null) {
                outcomes.add(new Outcome(own, true, redrives.get(own)));
                continue;
            }
            Long auditId = created.containsKey(shas[i]) ? created.get(shas[i]) : existing.get(shas[i]);
            if (auditId == null) {
                throw new IllegalStateException("no audit_input_key row for input " + shas[i] + " after inserting it");
            }
            outcomes.add(new Outcome(auditId, false, null));
        }
        return outcomes;
    }

    /** Runs a statement taking the SHA-256s and returning ({@code sha}, {@code audit_id}) rows. */
    private static Map<String, Long> keys(Connection connection, String sql, String[] shas) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setArray(1, connection.createArrayOf("text", shas));
            Map<String, Long> ids = new HashMap<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.put(rows.getString(1), rows.getLong(2));
                }
            }
            return ids;
        }
    }

    /** The created audit rows; returns each one's stored {@code redrive_of} by id (only the non-null ones). */
    private static Map<Long, Long> insertAudits(Connection connection, List<AuditRecord> records, List<Integer> fresh,
            Map<String, Long> ids, String[] shas) throws SQLException {
        Map<Long, Long> redrives = new HashMap<>();
        for (int from = 0; from < fresh.size(); from += AUDIT_ROWS_PER_STATEMENT) {
            List<Integer> chunk = fresh.subList(from, Math.min(fresh.size(), from + AUDIT_ROWS_PER_STATEMENT));
            try (PreparedStatement statement = connection.prepareStatement(AuditSql.insertAudits(chunk.size()))) {
                int p = 0;
                for (int i : chunk) {
                    AuditRecord record = records.get(i);
                    long id = ids.get(shas[i]);
                    statement.setLong(++p, id);
                    statement.setString(++p, record.requestId());
                    statement.setString(++p, record.source());
                    statement.setString(++p, record.sourceRef());
                    statement.setString(++p, record.receivedAt().toString());
                    statement.setString(++p, record.modelVerdict());
                    statement.setString(++p, record.effectiveVerdict());
                    statement.setBoolean(++p, record.downgraded());
                    statement.setArray(++p, connection.createArrayOf("text", record.guardReasons().toArray()));
                    statement.setString(++p, record.projectionMode());
                    statement.setObject(++p, record.groundednessScore(), Types.DOUBLE);
                    statement.setObject(++p, record.criticalFactCount(), Types.INTEGER);
                    statement.setBytes(++p, record.inputSha256());
                    statement.setString(++p, auditDocument(record, id));
                    statement.setObject(++p, record.redriveOf(), Types.BIGINT);
                    statement.setString(++p, record.policy());
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        long redriveOf = rows.getLong(2);
                        if (!rows.wasNull()) {
                            redrives.put(rows.getLong(1), redriveOf);
                        }
                    }
                }
            }
        }
        return redrives;
    }

    private static void insertClaimChecks(Connection connection, List<AuditRecord> records, List<Integer> fresh,
            Map<String, Long> ids, String[] shas) throws SQLException {
        int rows = fresh.stream().mapToInt(i -> records.get(i).claims().size()).sum();
        if (rows == 0) {
            return;
        }
        Long[] auditIds = new Long[rows];
        Integer[] ordinals = new Integer[rows];
        String[] claimIds = new String[rows];
        String[] texts = new String[rows];
        String[] types = new String[rows];
        String[] verifications = new String[rows];
        String[] legacy = new String[rows];
        Boolean[] critical = new Boolean[rows];
        String[] details = new String[rows];
        String[] evidence = new String[rows];
        int row = 0;
        for (int i : fresh) {
            long id = ids.get(shas[i]);
            for (ProjectedClaim claim : records.get(i).claims()) {
                auditIds[row] = id;
                ordinals[row] = claim.ordinal();
                claimIds[row] = claim.claimId();
                texts[row] = claim.claimText();
                types[row] = claim.claimType();
                verifications[row] = claim.verification();
                legacy[row] = claim.legacyVerification().label();
                critical[row] = claim.critical();
                details[row] = claim.detail();
                // a JSON null is SQL NULL, which the NOT NULL column refuses
                evidence[row] = claim.evidenceRefs() == null || claim.evidenceRefs().isNull() ? null
                        : StorableJson.MAPPER.writeValueAsString(claim.evidenceRefs());
                row++;
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(AuditSql.INSERT_CLAIM_CHECKS)) {
            statement.setArray(1, connection.createArrayOf("bigint", auditIds));
            statement.setArray(2, connection.createArrayOf("integer", ordinals));
            statement.setArray(3, connection.createArrayOf("text", claimIds));
            statement.setArray(4, connection.createArrayOf("text", texts));
            statement.setArray(5, connection.createArrayOf("text", types));
            statement.setArray(6, connection.createArrayOf("text", verifications));
            statement.setArray(7, connection.createArrayOf("text", legacy));
            statement.setArray(8, connection.createArrayOf("boolean", critical));
            statement.setArray(9, connection.createArrayOf("text", details));
            statement.setArray(10, connection.createArrayOf("text", evidence));
            statement.executeUpdate();
        }
    }

    private static void insertFindings(Connection connection, List<AuditRecord> records, List<Integer> fresh,
            Map<String, Long> ids, String[] shas) throws SQLException {
        int rows = fresh.stream().mapToInt(i -> records.get(i).findings().size()).sum();
        if (rows == 0) {
            return;
        }
        Long[] auditIds = new Long[rows];
        Integer[] ordinals = new Integer[rows];
        Integer[] claimOrdinals = new Integer[rows];
        String[] codes = new String[rows];
        String[] details = new String[rows];
        int row = 0;
        for (int i : fresh) {
            long id = ids.get(shas[i]);
            List<Finding> findings = records.get(i).findings();
            for (int ordinal = 0; ordinal < findings.size(); ordinal++) {
                Finding finding = findings.get(ordinal);
                auditIds[row] = id;
                ordinals[row] = ordinal;
                claimOrdinals[row] = finding.claimOrdinal();
                codes[row] = finding.code().code();
                details[row] = finding.detail();
                row++;
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(AuditSql.INSERT_FINDINGS)) {
            statement.setArray(1, connection.createArrayOf("bigint", auditIds));
            statement.setArray(2, connection.createArrayOf("integer", ordinals));
            statement.setArray(3, connection.createArrayOf("integer", claimOrdinals));
            statement.setArray(4, connection.createArrayOf("text", codes));
            statement.setArray(5, connection.createArrayOf("text", details));
            statement.executeUpdate();
        }
    }

    /**
     * The audit document of a created row: the envelope as received with the effective result, its {@code audit_id}
     * set, added as the last member under {@code effective_result}, or {@code claimguard_effective_result} when the
     * envelope has an {@code effective_result} of its own (which stays as it came). Made as text, so that PostgreSQL
     * parses it once, into the column: jsonb keeps the last of duplicate names, so the added member wins over an
     * envelope's own {@code claimguard_effective_result} as {@code ||} did.
     */
    static String auditDocument(AuditRecord record, long auditId) {
        String envelope = record.envelopeJson().strip();
        if (!envelope.endsWith("}")) {
            throw new IllegalStateException("an envelope that is not one JSON object");
        }
        String members = envelope.substring(0, envelope.length() - 1).stripTrailing();
        String key = record.envelopeHasEffectiveResult() ? AuditDocument.OWN_EFFECTIVE_RESULT : AuditDocument.EFFECTIVE_RESULT;
        String effective = EffectiveResult.withAuditId(record.effectiveResultJson(), auditId);
        return members + (members.endsWith("{") ? "" : ",") + "\"" + key + "\":" + effective + "}";
    }
}
