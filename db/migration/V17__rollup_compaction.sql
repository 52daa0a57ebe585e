-- Rollup compaction (issue 27): the triggers of V13 add one delta row per group per write statement, so a busy hour
-- or day holds thousands of rows that every overview chart and daily view sums. compact_rollups(since) merges the
-- deltas of each group from `since` on into one row holding their sum: the answers stay exactly the same, the rows
-- summed fall to one per group.
--
-- The runtime role still has no privilege on the rollup tables. It may only call this function, which runs as the
-- migration's owner (SECURITY DEFINER, fixed search_path) and can do nothing but replace rows by their sum: whoever
-- calls it, with whatever `since`, no count changes. Concurrent calls and concurrent writes are safe for the same
-- reason: a delta that one call deleted is summed by that call alone, and a delta committed after a call looked is
-- left for the next one.
--
-- finding_under_pass_rollup is not compacted: it holds one row per input and code (a second delta only when a finding
-- is added to an input later).

CREATE FUNCTION claimguard.compact_rollups(since timestamp) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    merged bigint;
    total  bigint := 0;
BEGIN
    WITH crowded AS (
        SELECT received_hour, source, projection_mode, effective_verdict, downgraded
        FROM claimguard.audit_rollup
        WHERE received_hour >= since
        GROUP BY 1, 2, 3, 4, 5
        HAVING count(*) > 1
    ), gone AS (
        DELETE FROM claimguard.audit_rollup AS r
        USING crowded AS c
        WHERE r.received_hour = c.received_hour AND r.source = c.source AND r.projection_mode = c.projection_mode
          AND r.effective_verdict = c.effective_verdict AND r.downgraded = c.downgraded
        RETURNING r.*
    ), kept AS (
        INSERT INTO claimguard.audit_rollup
        SELECT received_hour, source, projection_mode, effective_verdict, downgraded, sum(input_count)::bigint
        FROM gone
        GROUP BY 1, 2, 3, 4, 5
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept) INTO merged;
    total := total + merged;

    WITH crowded AS (
        SELECT received_hour, reason_code, downgraded
        FROM claimguard.guard_reason_rollup
        WHERE received_hour >= since
        GROUP BY 1, 2, 3
        HAVING count(*) > 1
    ), gone AS (
        DELETE FROM claimguard.guard_reason_rollup AS r
        USING crowded AS c
        WHERE r.received_hour = c.received_hour AND r.reason_code = c.reason_code AND r.downgraded = c.downgraded
        RETURNING r.*
    ), kept AS (
        INSERT INTO claimguard.guard_reason_rollup
        SELECT received_hour, reason_code, downgraded, sum(input_count)::bigint
        FROM gone
        GROUP BY 1, 2, 3
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept) INTO merged;
    total := total + merged;

    WITH crowded AS (
        SELECT received_day, claim_type, verification, legacy_verification
        FROM claimguard.claim_check_rollup
        WHERE received_day >= since::date
        GROUP BY 1, 2, 3, 4
        HAVING count(*) > 1
    ), gone AS (
        DELETE FROM claimguard.claim_check_rollup AS r
        USING crowded AS c
        WHERE r.received_day = c.received_day AND r.claim_type IS NOT DISTINCT FROM c.claim_type
          AND r.verification IS NOT DISTINCT FROM c.verification AND r.legacy_verification = c.legacy_verification
        RETURNING r.*
    ), kept AS (
        INSERT INTO claimguard.claim_check_rollup
        SELECT received_day, claim_type, verification, legacy_verification, sum(claim_count)::bigint
        FROM gone
        GROUP BY 1, 2, 3, 4
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept) INTO merged;
    total := total + merged;

    WITH crowded AS (
        SELECT received_day, code
        FROM claimguard.finding_rollup
        WHERE received_day >= since::date
        GROUP BY 1, 2
        HAVING count(*) > 1
    ), gone AS (
        DELETE FROM claimguard.finding_rollup AS r
        USING crowded AS c
        WHERE r.received_day = c.received_day AND r.code = c.code
        RETURNING r.*
    ), kept AS (
        INSERT INTO claimguard.finding_rollup
        SELECT received_day, code, sum(finding_count)::bigint, sum(input_count)::bigint
        FROM gone
        GROUP BY 1, 2
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept) INTO merged;
    RETURN total + merged;
END
$$;

COMMENT ON FUNCTION claimguard.compact_rollups(timestamp) IS
    'Merges the deltas of each rollup group whose UTC hour or day is at or after `since` into one row holding their '
    'sum; returns how many rows fewer the rollups hold. Changes no answer. The service calls it every '
    'claimguard.rollups.compaction-interval for the last two days.';

-- a function is executable by PUBLIC unless revoked: only the runtime role (and the owner) may call this one
REVOKE ALL ON FUNCTION claimguard.compact_rollups(timestamp) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION claimguard.compact_rollups(timestamp) TO claimguard_writer;

-- the deltas written since V13, once, by the owner
SELECT claimguard.compact_rollups('-infinity');
