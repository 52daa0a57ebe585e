package io.claimguard.harness.bench;

import io.claimguard.audit.AuditRecord;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Limits;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verification;
import io.claimguard.harness.bench.BenchEnvelopes.BenchEnvelope;
import io.claimguard.pipeline.ReceivedInput;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The ceiling: the fastest a Java process can put the same rows into the same tables, with nothing in the way.
 * The rows are computed before the clock starts, by the service's own pure code ({@link AuditRecord#of}); the
 * timed part is only plain JDBC: ids from the audit id sequence, then one batch of audit rows and one of
 * claim_check rows per transaction of {@value #ENVELOPES_PER_TRANSACTION} envelopes, on one connection. Same
 * server, same schema and indexes, same durability settings ({@code synchronous_commit} as the server has it).
 */
final class JdbcCeiling {

    static final int ENVELOPES_PER_TRANSACTION = 500;

    private static final String NEXT_IDS = "SELECT nextval(pg_get_serial_sequence('claimguard.verification_audit', 'id'))"
            + " FROM generate_series(1, ?)";
    private static final String INSERT_AUDIT = """
            INSERT INTO claimguard.verification_audit (
                id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                guard_reasons, projection_mode, groundedness_score, critical_fact_count, input_sha256, audit, policy)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), ?)
            """;
    private static final String INSERT_CLAIM_CHECK = """
            INSERT INTO claimguard.claim_check (
                audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                is_critical, detail, evidence_refs, audited_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), now())
            """;
    /** How {@code EffectiveResult.toJson(verification, null)} begins; the audit id goes in its place. */
    private static final String NO_AUDIT_ID = "{\"audit_id\":null";

    /** One audit row ready to insert, but for its id. */
    record Row(AuditRecord record, String auditPrefix, String auditSuffix) {

        String audit(long id) {
            return auditPrefix + id + auditSuffix;
        }
    }

    /** What the ceiling did. */
    record Result(int envelopes, long claimCheckRows, double seconds, ProcessProbe.CpuUse cpu) {

        double envelopesPerSecond() {
            return envelopes / seconds;
        }

        double rowsPerSecond() {
            return (envelopes + claimCheckRows) / seconds;
        }
    }

    private JdbcCeiling() {
    }

    static Result run(List<BenchEnvelope> envelopes, BenchDatabase database) throws SQLException, EnvelopeRejectedException {
        List<Row> rows = prepare(envelopes);
        long claimChecks = rows.stream().mapToLong(row -> row.record().claims().size()).sum();
        // rewrites each batch into multi-row INSERTs: the fastest plain JDBC gets with this driver
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl() + "?reWriteBatchedInserts=true",
                database.database().username(), database.database().password())) {
            connection.setAutoCommit(false);
            ProcessProbe.CpuWindow window = ProcessProbe.CpuWindow.start(ProcessHandle.current().pid());
            long started = System.nanoTime();
            for (int from = 0; from < rows.size(); from += ENVELOPES_PER_TRANSACTION) {
                insert(connection, rows.subList(from, Math.min(rows.size(), from + ENVELOPES_PER_TRANSACTION)));
                connection.commit();
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            ProcessProbe.CpuUse cpu = window.end(elapsed);
            BenchDatabase.Rows written = BenchDatabase.rows(connection);
            if (written.audit() != rows.size() || written.claimChecks() != claimChecks) {
                throw new IllegalStateException("the ceiling wrote " + written + ", expected " + rows.size()
                        + " audit rows and " + claimChecks + " claim_check rows");
            }
            return new Result(rows.size(), claimChecks, elapsed.toNanos() / 1e9, cpu);
        }
    }

    /** Everything but the ids, before the clock starts: read, project, guard, and the row values. */
    private static List<Row> prepare(List<BenchEnvelope> envelopes) throws EnvelopeRejectedException {
        EnvelopeReader reader = new EnvelopeReader(new Limits(1_048_576, 64));
        List<Row> rows = new ArrayList<>(envelopes.size());
        for (int i = 0; i < envelopes.size(); i++) {
            byte[] bytes = envelopes.get(i).bytes();
            Verification verification = Verification.of(reader.read(bytes));
            AuditRecord record = AuditRecord.of(new ReceivedInput(ReceivedInput.Source.JMS, "bench-" + i, OffsetDateTime.now(), bytes, null, null),
                    verification);
            rows.add(row(record, verification));
        }
        return rows;
    }

    /** The row of an input, ready to insert but for its id. */
    static Row row(AuditRecord record, Verification verification) {
        return new Row(record, auditPrefix(record, verification), auditSuffix(record));
    }

    /**
     * The audit document as the service stores it (AuditSql): the envelope as received, with the effective result
     * added under {@code effective_result}, or {@code claimguard_effective_result} where the envelope has its own
     * {@code effective_result}. Everything up to where the audit id goes.
     */
    private static String auditPrefix(AuditRecord record, Verification verification) {
        String envelope = record.envelopeJson().strip();
        if (!envelope.endsWith("}")) {
            throw new IllegalStateException("an envelope that is not one JSON object: " + envelope);
        }
        String key = verification.envelope().root().has("effective_result") ? "claimguard_effective_result" : "effective_result";
        String separator = verification.envelope().root().isEmpty() ? "" : ",";
        return envelope.substring(0, envelope.length() - 1) + separator + "\"" + key + "\":{\"audit_id\":";
    }

    /** The rest of the document after the audit id. */
    private static String auditSuffix(AuditRecord record) {
        String effective = record.effectiveResultJson();
        if (!effective.startsWith(NO_AUDIT_ID)) {
            throw new IllegalStateException("the effective result no longer begins with " + NO_AUDIT_ID + ": " + effective);
        }
        return effective.substring(NO_AUDIT_ID.length()) + "}";
    }

    /** Inserts the rows (not committed) and returns their audit ids, in order. */
    static long[] insert(Connection connection, List<Row> rows) throws SQLException {
        long[] ids = nextIds(connection, rows.size());
        try (PreparedStatement audit = connection.prepareStatement(INSERT_AUDIT);
                PreparedStatement claims = connection.prepareStatement(INSERT_CLAIM_CHECK)) {
            for (int i = 0; i < rows.size(); i++) {
                AuditRecord record = rows.get(i).record();
                audit.setLong(1, ids[i]);
                audit.setString(2, record.requestId());
                audit.setString(3, record.source());
                audit.setString(4, record.sourceRef());
                audit.setObject(5, record.receivedAt());
                audit.setString(6, record.modelVerdict());
                audit.setString(7, record.effectiveVerdict());
                audit.setBoolean(8, record.downgraded());
                audit.setArray(9, connection.createArrayOf("text", record.guardReasons().toArray()));
                audit.setString(10, record.projectionMode());
                audit.setObject(11, record.groundednessScore(), Types.DOUBLE);
                audit.setObject(12, record.criticalFactCount(), Types.INTEGER);
                audit.setBytes(13, record.inputSha256());
                audit.setString(14, rows.get(i).audit(ids[i]));
                audit.setString(15, record.policy());
                audit.addBatch();
                for (ProjectedClaim claim : record.claims()) {
                    claims.setLong(1, ids[i]);
                    claims.setInt(2, claim.ordinal());
                    claims.setString(3, claim.claimId());
                    claims.setString(4, claim.claimText());
                    claims.setString(5, claim.claimType());
                    claims.setString(6, claim.verification());
                    claims.setString(7, claim.legacyVerification().label());
                    claims.setBoolean(8, claim.critical());
                    claims.setString(9, claim.detail());
                    claims.setString(10, claim.evidenceRefs().toString());
                    claims.addBatch();
                }
            }
            // audit rows first: claim_check references them
            audit.executeBatch();
            claims.executeBatch();
        }
        return ids;
    }

    private static long[] nextIds(Connection connection, int count) throws SQLException {
        long[] ids = new long[count];
        try (PreparedStatement statement = connection.prepareStatement(NEXT_IDS)) {
            statement.setInt(1, count);
            try (ResultSet result = statement.executeQuery()) {
                for (int i = 0; i < count; i++) {
                    if (!result.next()) {
                        throw new IllegalStateException("the sequence gave " + i + " of " + count + " ids");
                    }
                    ids[i] = result.getLong(1);
                }
            }
        }
        return ids;
    }
}
