-- Question: which PASS verdicts of the model did the guard overrule in the last 24 hours, and why?
-- Run:      psql -h <host> -d <database> -U <login> -f db/queries/overruled_pass_last_24h.sql
-- Reads:    claimguard.guard_overruled_pass (needs claimguard_reader). Newest first; id is the audit_id
--           that the effective result carried, to look up in claimguard.verification_audit.
SELECT received_at,
       request_id,
       id AS audit_id,
       effective_verdict,
       array_to_string(guard_reasons, ', ') AS reasons
FROM claimguard.guard_overruled_pass
WHERE received_at >= now() - interval '24 hours'
ORDER BY received_at DESC, id DESC;
