-- Question: what did the verifier say about each claim of one chat request?
-- Run:      psql -h <host> -d <database> -U <login> -v request_id=chat-2f91.req-0101 -f db/queries/claim_checks_of_request.sql
-- Reads:    claimguard.verification_audit and claimguard.claim_check (needs claimguard_reader).
-- Note:     every attempt for the request_id is listed (a retried verification is an audit of its own), in the
--           order received; an input without claim_checks (V1 or none) shows one row with NULL claim columns.
\if :{?request_id}
\else
\warn 'claim_checks_of_request.sql needs the request id: psql ... -v request_id=chat-2f91.req-0101 -f db/queries/claim_checks_of_request.sql'
\quit
\endif
SELECT a.id AS audit_id,
       a.received_at,
       a.effective_verdict,
       a.projection_mode,
       c.ordinal,
       c.claim_id,
       c.claim_type,
       c.verification,
       c.legacy_verification,
       c.is_critical,
       c.claim_text,
       c.detail,
       c.evidence_refs
FROM claimguard.verification_audit AS a
LEFT JOIN claimguard.claim_check AS c ON c.audit_id = a.id
WHERE a.request_id = :'request_id'
ORDER BY a.received_at, a.id, c.ordinal;
