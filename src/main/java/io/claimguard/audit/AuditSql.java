package io.claimguard.audit;

/**
 * The statements that write a batch of audits ({@link AuditBatchStatement}), in one transaction, the way the
 * benchmark's plain-JDBC ceiling writes rows: every value a bound parameter of its own column type, nothing parsed by
 * PostgreSQL to recover rows the service already has, and nothing spliced into SQL text (the audit rows' statement is
 * made of placeholders only, one group per row). {@code now()} is the transaction's start, so every statement of a
 * batch gives its rows the same {@code audited_at}, the partition key the children share with their audit (V14).
 */
final class AuditSql {

    /**
     * The key of every input not audited before, each with an id from the audit id sequence, in batch order: the one
     * place an input's bytes' uniqueness is decided across all partitions (V14). The second of two identical inputs in
     * the batch, and an input audited before, insert nothing; an identical input of a concurrent transaction makes
     * this wait for it. One parameter: the inputs' SHA-256 in hex, as {@code text[]}. Returns the created keys.
     */
    static final String INSERT_KEYS = """
            INSERT INTO claimguard.audit_input_key (input_sha256, audit_id, audited_at)
            SELECT decode(k.sha, 'hex'), nextval(pg_get_serial_sequence('claimguard.verification_audit', 'id')), now()
            FROM unnest(CAST(? AS text[])) WITH ORDINALITY AS k (sha, idx)
            ORDER BY k.idx
            ON CONFLICT ON CONSTRAINT verification_audit_input_sha256_key DO NOTHING
            RETURNING encode(input_sha256, 'hex') AS sha, audit_id
            """;

    /**
     * The audit ids of inputs audited before, by their SHA-256 in hex ({@code text[]}). A separate statement sees what
     * committed while {@link #INSERT_KEYS} waited (read committed), so an input that a concurrent batch audited first
     * finds its row.
     */
    static final String EARLIER_KEYS = """
            SELECT encode(k.input_sha256, 'hex') AS sha, k.audit_id
            FROM claimguard.audit_input_key AS k
            WHERE k.input_sha256 IN (SELECT decode(s.sha, 'hex') FROM unnest(CAST(? AS text[])) AS s (sha))
            """;

    /**
     * Claim checks, all of a batch in one statement (its rollup trigger fires once), one array parameter per column:
     * the number of rows is not bounded by the protocol's 65,535 parameters.
     */
    static final String INSERT_CLAIM_CHECKS = """
            INSERT INTO claimguard.claim_check (
                audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                is_critical, detail, evidence_refs, audited_at)
            SELECT c.audit_id, c.ordinal, c.claim_id, c.claim_text, c.claim_type, c.verification,
                   c.legacy_verification, c.is_critical, c.detail, CAST(c.evidence_refs AS jsonb), now()
            FROM unnest(CAST(? AS bigint[]), CAST(? AS integer[]), CAST(? AS text[]), CAST(? AS text[]),
                        CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS boolean[]),
                        CAST(? AS text[]), CAST(? AS text[]))
                AS c (audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                      is_critical, detail, evidence_refs)
            """;

    /**
     * Findings, all of a batch in one statement: the finding rollup trigger counts an input's first finding of a code
     * by comparing the statement's findings of that input with the table's, so an input's findings are never split
     * over two statements.
     */
    static final String INSERT_FINDINGS = """
            INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
            SELECT f.audit_id, f.ordinal, f.claim_ordinal, f.code, f.detail, now()
            FROM unnest(CAST(? AS bigint[]), CAST(? AS integer[]), CAST(? AS integer[]), CAST(? AS text[]),
                        CAST(? AS text[]))
                AS f (audit_id, ordinal, claim_ordinal, code, detail)
            """;

    private static final String INSERT_AUDITS = """
            INSERT INTO claimguard.verification_audit AS a (
                id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                guard_reasons, projection_mode, groundedness_score, critical_fact_count, input_sha256, audit,
                redrive_of, policy, audited_at)
            SELECT r.id, r.request_id, r.source, r.source_ref, r.received_at, r.model_verdict, r.effective_verdict,
                   r.downgraded, r.guard_reasons, r.projection_mode, r.groundedness_score, r.critical_fact_count,
                   r.input_sha256, r.audit,
                   (SELECT d.dead_letter_id FROM claimguard.dead_letter_key AS d WHERE d.dead_letter_id = r.redrive_of),
                   r.policy, now()
            FROM (VALUES %s) AS r (
                id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                guard_reasons, projection_mode, groundedness_score, critical_fact_count, input_sha256, audit,
                redrive_of, policy)
            RETURNING a.id, a.redrive_of
            """;

    /** One row's placeholders, typed so that every row of the VALUES list has its column's type. */
    private static final String AUDIT_ROW = "(CAST(? AS bigint), ?, ?, ?, CAST(? AS timestamptz), ?, ?, CAST(? AS boolean),"
            + " CAST(? AS text[]), ?, CAST(? AS double precision), CAST(? AS integer), CAST(? AS bytea),"
            + " CAST(? AS jsonb), CAST(? AS bigint), ?)";

    private AuditSql() {
    }

    /**
     * Inserts {@code rows} audit rows, each document a parameter of its own (as the ceiling sends it): returns each
     * created row's {@code id} and {@code redrive_of} (null when the dead letter it names does not exist, which the
     * statement never fails for). The text is placeholders only; the driver keeps one prepared statement per size.
     */
    static String insertAudits(int rows) {
        StringBuilder values = new StringBuilder(rows * (AUDIT_ROW.length() + 2));
        for (int i = 0; i < rows; i++) {
            values.append(i == 0 ? "" : ", ").append(AUDIT_ROW);
        }
        return INSERT_AUDITS.formatted(values);
    }
}
