package io.claimguard.audit;

/**
 * The statements ClaimGuard runs, all with named parameters ({@code :?name}) bound by camel-jdbc from the
 * {@code CamelJdbcParameters} map: nothing is ever spliced into SQL text.
 */
final class AuditSql {

    /**
     * Inserts the audit row and its claim_check rows in one statement, so that they commit together or not at
     * all. A byte-identical input hits the unique key and inserts nothing; the statement then returns the
     * earlier row's id with {@code created = false}.
     */
    static final String INSERT_VERIFICATION = """
            WITH new_row AS (
                SELECT nextval(pg_get_serial_sequence('claimguard.verification_audit', 'id')) AS id
            ), inserted AS (
                INSERT INTO claimguard.verification_audit (
                    id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                    guard_reasons, projection_mode, groundedness_score, critical_fact_count, input_sha256, audit)
                SELECT new_row.id, :?request_id, :?source, :?source_ref, :?received_at, :?model_verdict,
                       :?effective_verdict, :?downgraded,
                       ARRAY(SELECT jsonb_array_elements_text(CAST(:?guard_reasons AS jsonb))),
                       :?projection_mode, :?groundedness_score, :?critical_fact_count, :?input_sha256,
                       jsonb_build_object(
                           'envelope', CAST(:?envelope AS jsonb),
                           'effective_result', jsonb_set(CAST(:?effective_result AS jsonb), '{audit_id}', to_jsonb(new_row.id)))
                FROM new_row
                ON CONFLICT ON CONSTRAINT verification_audit_input_sha256_key DO NOTHING
                RETURNING id
            ), claims AS (
                INSERT INTO claimguard.claim_check (
                    audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                    is_critical, detail, evidence_refs)
                SELECT inserted.id, c.ordinal, c.claim_id, c.claim_text, c.claim_type, c.verification,
                       c.legacy_verification, c.is_critical, c.detail, c.evidence_refs
                FROM inserted
                CROSS JOIN jsonb_to_recordset(CAST(:?claims AS jsonb)) AS c(
                    ordinal integer, claim_id text, claim_text text, claim_type text, verification text,
                    legacy_verification text, is_critical boolean, detail text, evidence_refs jsonb)
            )
            SELECT id AS audit_id, true AS created FROM inserted
            UNION ALL
            SELECT id, false FROM claimguard.verification_audit
            WHERE input_sha256 = :?input_sha256 AND NOT EXISTS (SELECT 1 FROM inserted)
            """;

    /** Records a rejected or failed input once per delivery: a retried delivery hits the unique key. */
    static final String INSERT_DEAD_LETTER = """
            INSERT INTO claimguard.dead_letter (
                source, source_ref, received_at, reason_code, reason, payload, payload_sha256)
            VALUES (:?source, :?source_ref, :?received_at, :?reason_code, :?reason, :?payload, :?payload_sha256)
            ON CONFLICT ON CONSTRAINT dead_letter_delivery_key DO NOTHING
            """;

    private AuditSql() {
    }
}
