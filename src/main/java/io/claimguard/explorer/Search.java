package io.claimguard.explorer;

/**
 * Full-text search over claim text, rationale and tool names: the condition a list adds for a search term. Its two
 * expressions are those of the indexes of {@code V16__explorer_search.sql}, character for character, so that PostgreSQL
 * serves each part from its GIN index; the term is a bound parameter read by {@code plainto_tsquery} (every word must
 * occur; no operator syntax to get wrong).
 */
final class Search {

    static final String CLAIM_TEXT = "to_tsvector('simple', coalesce(c.claim_text, ''))";

    static final String AUDIT_TEXT = "to_tsvector('simple', coalesce(v.audit -> 'verifier_output' ->> 'rationale', '') || ' '"
            + " || jsonb_path_query_array(v.audit, '$.verifier_input.tool_trace_summary[*].tool_name')::text || ' '"
            + " || jsonb_path_query_array(v.audit, '$.verifier_output.claim_checks[*].evidence_refs[*].tool_name')::text)";

    /**
     * Audits a claim of which, or whose rationale or tool names, hold every word of the term (two parameters). The ids
     * are gathered first, once (an array), and the audit rows then taken by their primary key: PostgreSQL cannot tell how
     * few ids a rare word finds, and as a join it would read the whole audit table to meet them.
     */
    static final String CONDITION = "id = ANY (ARRAY(SELECT c.audit_id FROM claimguard.claim_check AS c WHERE "
            + CLAIM_TEXT + " @@ plainto_tsquery('simple', ?) UNION SELECT v.id FROM claimguard.verification_audit AS v"
            + " WHERE " + AUDIT_TEXT + " @@ plainto_tsquery('simple', ?)))";

    private Search() {
    }
}
