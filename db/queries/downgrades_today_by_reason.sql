-- Question: which guard rules fired today (UTC), and how often did they come with a downgraded verdict?
-- Run:      psql -h <host> -d <database> -U <login> -f db/queries/downgrades_today_by_reason.sql
-- Reads:    claimguard.downgrades_per_reason_daily (needs claimguard_reader).
-- Note:     an input downgraded with two reasons counts under both; a reason with downgraded_count 0 fired
--           only where the verdict was already as strict as its cap.
SELECT reason_code,
       fired_count,
       downgraded_count
FROM claimguard.downgrades_per_reason_daily
WHERE day = (now() AT TIME ZONE 'UTC')::date
ORDER BY downgraded_count DESC, fired_count DESC, reason_code;
