-- Claim labels per hour, counted both as claim checks and as inputs (issue 30). The overview's label chart summed
-- claim_check_rollup, which counts claim checks per UTC day: one input of 18,097 claims drew one tall bar, and no
-- chart could say how many inputs carried a label, nor cover only the last 24 hours. This rollup keeps, per UTC hour of
-- the audit's received_at, V2 label and legacy label: the claim checks, and the inputs that have at least one claim
-- check of that pair (an input with claims of two pairs counts under both).
--
-- Kept like the rollups of V13: insert-only deltas from a statement-level trigger running as the migration's owner
-- (claimguard_writer holds no privilege on the table), compacted by compact_rollups (replaced below with one more
-- block). An input counts under a pair only in the statement that added every claim check of that input and pair
-- (the service writes an input's claim checks in one statement): a claim check added later to an input that already
-- had the pair does not count the input again. Grouping first keeps the trigger linear in the claim checks it adds
-- (the lesson of V18).

CREATE TABLE claimguard.claim_label_rollup (
    received_hour       timestamp NOT NULL,
    verification        text,
    legacy_verification text      NOT NULL,
    claim_count         bigint    NOT NULL,
    input_count         bigint    NOT NULL
);
COMMENT ON TABLE claimguard.claim_label_rollup IS
    'Deltas per UTC hour of the audit''s received_at, V2 label and legacy label: claim_count = claim checks, '
    'input_count = inputs that had no claim check of this pair before; sum both over the rows of a group. Kept by a '
    'trigger on claim_check (V20).';
CREATE INDEX claim_label_rollup_hour_idx ON claimguard.claim_label_rollup (received_hour);

CREATE FUNCTION claimguard.roll_up_claim_labels() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    WITH added AS (
        SELECT audit_id, verification, legacy_verification, count(*) AS claim_count
        FROM new_rows
        GROUP BY audit_id, verification, legacy_verification
    )
    INSERT INTO claimguard.claim_label_rollup
    SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC'), d.verification, d.legacy_verification,
           sum(d.claim_count)::bigint,
           count(*) FILTER (WHERE d.claim_count = (SELECT count(*) FROM claimguard.claim_check AS c
                                                   WHERE c.audit_id = d.audit_id
                                                     AND c.verification IS NOT DISTINCT FROM d.verification
                                                     AND c.legacy_verification = d.legacy_verification))
    FROM added AS d
    JOIN claimguard.verification_audit AS a ON a.id = d.audit_id
    GROUP BY 1, 2, 3;
    RETURN NULL;
END
$$;

CREATE TRIGGER claim_label_rollup AFTER INSERT ON claimguard.claim_check
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_claim_labels();

-- the rows written before this migration, in the same transaction as the trigger: none is missed or counted twice
LOCK TABLE claimguard.verification_audit, claimguard.claim_check IN SHARE MODE;

INSERT INTO claimguard.claim_label_rollup
SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC'), c.verification, c.legacy_verification, count(*),
       count(DISTINCT c.audit_id)
FROM claimguard.claim_check AS c
JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
GROUP BY 1, 2, 3;

GRANT SELECT ON claimguard.claim_label_rollup TO claimguard_reader;

-- compact_rollups of V17, with the new rollup as its fifth block (CREATE OR REPLACE keeps its owner and grants)
CREATE OR REPLACE FUNCTION claimguard.compact_rollups(since timestamp) RETURNS bigint
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
    total := total + merged;

    WITH crowded AS (
        SELECT received_hour, verification, legacy_verification
        FROM claimguard.claim_label_rollup
        WHERE received_hour >= since
        GROUP BY 1, 2, 3
        HAVING count(*) > 1
    ), gone AS (
        DELETE FROM claimguard.claim_label_rollup AS r
        USING crowded AS c
        WHERE r.received_hour = c.received_hour AND r.verification IS NOT DISTINCT FROM c.verification
          AND r.legacy_verification = c.legacy_verification
        RETURNING r.*
    ), kept AS (
        INSERT INTO claimguard.claim_label_rollup
        SELECT received_hour, verification, legacy_verification, sum(claim_count)::bigint, sum(input_count)::bigint
        FROM gone
        GROUP BY 1, 2, 3
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept) INTO merged;
    RETURN total + merged;
END
$$;
