-- Full-text search for the explorer (issue 30): words of a claim's text, and of an audit's rationale and the tool names
-- its traces and evidence name, each served by a GIN index on a tsvector expression, so that a search is an index
-- lookup rather than a read of every document. The 'simple' configuration: no stemming and no stop words, so a word
-- matches as it was written (service names, tool names, ids), in any language. Indexes only: no column, no grant;
-- claimguard_reader's SELECT covers what they serve. The explorer's queries repeat these expressions exactly
-- (io.claimguard.explorer.Search), which is what lets PostgreSQL use the indexes.

CREATE INDEX claim_check_text_search_idx ON claimguard.claim_check
    USING gin (to_tsvector('simple', coalesce(claim_text, '')));

CREATE INDEX verification_audit_text_search_idx ON claimguard.verification_audit
    USING gin (to_tsvector('simple', coalesce(audit -> 'verifier_output' ->> 'rationale', '') || ' '
        || jsonb_path_query_array(audit, '$.verifier_input.tool_trace_summary[*].tool_name')::text || ' '
        || jsonb_path_query_array(audit, '$.verifier_output.claim_checks[*].evidence_refs[*].tool_name')::text));
