-- Question: what did checking the verifier's evidence and consistency find today (UTC), and on how many inputs?
-- Run:      psql -h <host> -d <database> -U <login> -f db/queries/findings_today_by_code.sql
-- Reads:    claimguard.findings_per_code_daily (needs claimguard_reader).
-- Note:     input_count counts an input once per code however often it was found in it (finding_count); the
--           inputs themselves are in claimguard.finding (audit_id), those that still passed in
--           claimguard.findings_under_pass.
SELECT code,
       input_count,
       finding_count
FROM claimguard.findings_per_code_daily
WHERE day = (now() AT TIME ZONE 'UTC')::date
ORDER BY input_count DESC, finding_count DESC, code;
