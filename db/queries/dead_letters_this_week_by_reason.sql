-- Question: how many inputs were rejected this week (since Monday 00:00 UTC), by reason code?
-- Run:      psql -h <host> -d <database> -U <login> -f db/queries/dead_letters_this_week_by_reason.sql
-- Reads:    claimguard.dead_letter (needs claimguard_reader). The raw input of each is in dead_letter.payload.
SELECT reason_code,
       count(*)         AS rejected_count,
       min(received_at) AS first_received_at,
       max(received_at) AS last_received_at
FROM claimguard.dead_letter
WHERE received_at >= date_trunc('week', now(), 'UTC')
GROUP BY reason_code
ORDER BY rejected_count DESC, reason_code;
