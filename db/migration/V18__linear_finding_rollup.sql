-- The finding rollup trigger of V13 counted an input under a code only for its first finding with that code, by
-- asking, for each new finding, whether a finding of the same input and code exists that is not among the
-- statement's new rows: a correlated subplan whose anti-join against the transition table PostgreSQL plans as a
-- nested loop (it estimates the transition table at one row). For the few findings of ordinary inputs that is
-- nothing; for one input with thousands it is cubic: an audit of 20,000 claim checks and 2,000 findings took 235 s
-- (auto_explain: "Nested Loop Anti Join" over "Named Tuplestore Scan (rows=1)" inside SubPlan 1).
--
-- Same answer, linear: group the new findings by input and code first; the input counts under the code when the
-- statement added every finding of that input and code that exists (one count through finding_code_idx per group).
CREATE OR REPLACE FUNCTION claimguard.roll_up_findings() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    WITH added AS (
        SELECT audit_id, code, count(*) AS finding_count
        FROM new_rows
        GROUP BY audit_id, code
    )
    INSERT INTO claimguard.finding_rollup
    SELECT (a.received_at AT TIME ZONE 'UTC')::date, d.code, sum(d.finding_count)::bigint,
           count(*) FILTER (WHERE d.finding_count = (SELECT count(*) FROM claimguard.finding AS f
                                                     WHERE f.code = d.code AND f.audit_id = d.audit_id))
    FROM added AS d
    JOIN claimguard.verification_audit AS a ON a.id = d.audit_id
    GROUP BY 1, 2;
    INSERT INTO claimguard.finding_under_pass_rollup
    SELECT a.id, a.request_id, a.received_at, a.model_verdict, f.code, count(*)
    FROM new_rows AS f
    JOIN claimguard.verification_audit AS a ON a.id = f.audit_id
    WHERE a.effective_verdict = 'PASS'
    GROUP BY a.id, a.request_id, a.received_at, a.model_verdict, f.code;
    RETURN NULL;
END
$$;
