package io.claimguard.audit;

/**
 * The statements ClaimGuard runs, all with named parameters ({@code :?name}) bound by camel-jdbc from the
 * {@code CamelJdbcParameters} map: nothing is ever spliced into SQL text.
 */
final class AuditSql {

    /**
     * Inserts the audit rows, claim_check rows and finding rows of a batch of inputs in one statement, so that they
     * commit together or not at all. The audit document is the envelope as received with the effective result added
     * under {@code effective_result} ({@code claimguard_effective_result} if the envelope has a field of that name,
     * which stays as it came). The one parameter, {@code batch}, is a JSON array with one object per input
     * ({@link AuditBatchStatement}), the envelope and the effective result in it as JSON documents (not strings), so
     * that PostgreSQL parses each once: read as {@code json}, the batch is only scanned, and each value is parsed
     * into its column's type (the documents into {@code jsonb}) as the row is made, instead of parsing the whole
     * batch into one {@code jsonb} tree first (a third of the statement's time for 64 inputs). An input whose bytes
     * were audited before (the unique key on {@code input_sha256}) inserts nothing, and so does the second of two
     * identical inputs in one batch: uniqueness across the monthly partitions is decided by the key table
     * {@code audit_input_key} (V14), whose row the statement inserts first; the children get their audit's
     * {@code audited_at}, the partition key. Returns one row per input, in batch order: {@code idx}, {@code audit_id} (its own
     * new row, or the earlier row of identical bytes; null only when an identical input committed concurrently after
     * this statement began) and
     * {@code created} and {@code redrive_of} (the new row's: null also when the input's {@code redrive_of} names no
     * dead letter, which the statement never fails for).
     */
    static final String INSERT_VERIFICATIONS = """
            WITH batch AS MATERIALIZED (
                SELECT b.*,
                       nextval(pg_get_serial_sequence('claimguard.verification_audit', 'id')) AS id
                FROM json_to_recordset(CAST(:?batch AS json)) AS b(
                    idx integer, request_id text, source text, source_ref text, received_at timestamptz,
                    model_verdict text, effective_verdict text, downgraded boolean, guard_reasons jsonb,
                    projection_mode text, groundedness_score double precision, critical_fact_count integer,
                    input_sha256 text, envelope jsonb, effective_result jsonb, claims jsonb, findings jsonb,
                    redrive_of bigint, policy text)
            ), keys AS (
                -- the key of every input not audited before: the one place its bytes' uniqueness is decided (V14)
                INSERT INTO claimguard.audit_input_key (input_sha256, audit_id, audited_at)
                SELECT decode(input_sha256, 'hex'), id, now()
                FROM batch
                ORDER BY idx
                ON CONFLICT ON CONSTRAINT verification_audit_input_sha256_key DO NOTHING
                RETURNING audit_id, audited_at
            ), inserted AS (
                INSERT INTO claimguard.verification_audit (
                    id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                    guard_reasons, projection_mode, groundedness_score, critical_fact_count, input_sha256, audit,
                    redrive_of, policy, audited_at)
                SELECT id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                       ARRAY(SELECT jsonb_array_elements_text(guard_reasons)),
                       projection_mode, groundedness_score, critical_fact_count, decode(input_sha256, 'hex'),
                       envelope || jsonb_build_object(
                           CASE WHEN envelope -> 'effective_result' IS NOT NULL THEN 'claimguard_effective_result'
                                ELSE 'effective_result' END,
                           jsonb_set(effective_result, '{audit_id}', to_jsonb(id))),
                       (SELECT d.dead_letter_id FROM claimguard.dead_letter_key d
                        WHERE d.dead_letter_id = batch.redrive_of), policy, keys.audited_at
                FROM batch
                JOIN keys ON keys.audit_id = batch.id
                ORDER BY idx
                RETURNING id, input_sha256, redrive_of, audited_at
            ), claims AS (
                INSERT INTO claimguard.claim_check (
                    audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                    is_critical, detail, evidence_refs, audited_at)
                SELECT inserted.id, c.ordinal, c.claim_id, c.claim_text, c.claim_type, c.verification,
                       c.legacy_verification, c.is_critical, c.detail, c.evidence_refs,
                       inserted.audited_at
                FROM inserted
                JOIN batch ON batch.id = inserted.id
                CROSS JOIN jsonb_to_recordset(batch.claims) AS c(
                    ordinal integer, claim_id text, claim_text text, claim_type text, verification text,
                    legacy_verification text, is_critical boolean, detail text, evidence_refs jsonb)
            ), findings AS (
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                SELECT inserted.id, f.ordinal, f.claim_ordinal, f.code, f.detail, inserted.audited_at
                FROM inserted
                JOIN batch ON batch.id = inserted.id
                CROSS JOIN jsonb_to_recordset(batch.findings) AS f(
                    ordinal integer, claim_ordinal integer, code text, detail text)
            )
            SELECT batch.idx,
                   COALESCE(own.id, twin.id, earlier.audit_id) AS audit_id,
                   own.id IS NOT NULL AS created,
                   own.redrive_of
            FROM batch
            LEFT JOIN inserted own ON own.id = batch.id
            LEFT JOIN inserted twin
                ON own.id IS NULL AND twin.input_sha256 = decode(batch.input_sha256, 'hex')
            LEFT JOIN claimguard.audit_input_key earlier
                ON own.id IS NULL AND twin.id IS NULL AND earlier.input_sha256 = decode(batch.input_sha256, 'hex')
            ORDER BY batch.idx
            """;

    private AuditSql() {
    }
}
