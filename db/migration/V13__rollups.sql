-- Rollups (issue 27): the explorer's overview and the daily analyst views read counts kept as audits are written,
-- instead of scanning every audit, claim check and finding. Insert-only like the audit itself: a statement-level
-- trigger adds one delta row per group of the rows its statement inserted (the audit writer inserts a batch per
-- statement, so one small insert per batch), and readers sum the deltas. Nothing is ever updated, so concurrent
-- writers never wait on each other and no dead rows pile up (autovacuum may be off).
--
-- The rollups are bookkeeping, not audit: the seal does not cover them, and the audit tables stay the truth (the
-- IT RollupsIT compares every rollup-served answer with the scan of the audit tables). The triggers run as the
-- migration's owner (SECURITY DEFINER, fixed search_path): claimguard_writer gets no privilege on the rollup tables,
-- so it can neither forge nor remove a delta.
--
-- Hours and days are UTC, like the views of V2.

CREATE TABLE claimguard.audit_rollup (
    received_hour     timestamp NOT NULL,
    source            text      NOT NULL,
    projection_mode   text      NOT NULL,
    effective_verdict text      NOT NULL,
    downgraded        boolean   NOT NULL,
    input_count       bigint    NOT NULL
);
COMMENT ON TABLE claimguard.audit_rollup IS
    'Deltas of audited inputs per UTC hour of received_at, source, projection_mode, effective verdict and downgraded; '
    'sum input_count over the rows of a group. Kept by a trigger on verification_audit (V13).';
CREATE INDEX audit_rollup_hour_idx ON claimguard.audit_rollup (received_hour);
CREATE INDEX audit_rollup_day_idx ON claimguard.audit_rollup ((received_hour::date));

CREATE TABLE claimguard.guard_reason_rollup (
    received_hour timestamp NOT NULL,
    reason_code   text      NOT NULL,
    downgraded    boolean   NOT NULL,
    input_count   bigint    NOT NULL
);
COMMENT ON TABLE claimguard.guard_reason_rollup IS
    'Deltas of audited inputs per UTC hour of received_at, guard reason code that fired and downgraded; sum '
    'input_count over the rows of a group. Kept by a trigger on verification_audit (V13).';
CREATE INDEX guard_reason_rollup_hour_idx ON claimguard.guard_reason_rollup (received_hour);
CREATE INDEX guard_reason_rollup_day_idx ON claimguard.guard_reason_rollup ((received_hour::date));

CREATE TABLE claimguard.claim_check_rollup (
    received_day        date   NOT NULL,
    claim_type          text,
    verification        text,
    legacy_verification text   NOT NULL,
    claim_count         bigint NOT NULL
);
COMMENT ON TABLE claimguard.claim_check_rollup IS
    'Deltas of claim checks per UTC day of their audit''s received_at, claim_type, V2 label and legacy label; sum '
    'claim_count over the rows of a group. Kept by a trigger on claim_check (V13).';
CREATE INDEX claim_check_rollup_day_idx ON claimguard.claim_check_rollup (received_day);

CREATE TABLE claimguard.finding_rollup (
    received_day  date   NOT NULL,
    code          text   NOT NULL,
    finding_count bigint NOT NULL,
    -- inputs whose first finding with this code is in the delta's statement: summed, each input counts once
    input_count   bigint NOT NULL
);
COMMENT ON TABLE claimguard.finding_rollup IS
    'Deltas of findings per UTC day of their audit''s received_at and code: finding_count = findings, input_count = '
    'inputs that had none with this code before; sum both over the rows of a group. Kept by a trigger on finding (V13).';
CREATE INDEX finding_rollup_day_idx ON claimguard.finding_rollup (received_day);

CREATE TABLE claimguard.finding_under_pass_rollup (
    audit_id      bigint      NOT NULL,
    request_id    text        NOT NULL,
    received_at   timestamptz NOT NULL,
    model_verdict text,
    code          text        NOT NULL,
    finding_count bigint      NOT NULL
);
COMMENT ON TABLE claimguard.finding_under_pass_rollup IS
    'Deltas of findings per audited input whose effective verdict is PASS, and code; sum finding_count over the rows '
    'of an audit_id. Kept by a trigger on finding (V13).';
CREATE INDEX finding_under_pass_rollup_received_at_idx ON claimguard.finding_under_pass_rollup (received_at);

-- ---- the triggers

CREATE FUNCTION claimguard.roll_up_audits() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO claimguard.audit_rollup
    SELECT date_trunc('hour', received_at AT TIME ZONE 'UTC'), source, projection_mode, effective_verdict, downgraded,
           count(*)
    FROM new_rows
    GROUP BY 1, 2, 3, 4, 5;
    INSERT INTO claimguard.guard_reason_rollup
    SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC'), r.code, a.downgraded, count(*)
    FROM new_rows AS a
    CROSS JOIN LATERAL unnest(a.guard_reasons) AS r (code)
    GROUP BY 1, 2, 3;
    RETURN NULL;
END
$$;

CREATE FUNCTION claimguard.roll_up_claim_checks() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO claimguard.claim_check_rollup
    SELECT (a.received_at AT TIME ZONE 'UTC')::date, c.claim_type, c.verification, c.legacy_verification, count(*)
    FROM new_rows AS c
    JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
    GROUP BY 1, 2, 3, 4;
    RETURN NULL;
END
$$;

CREATE FUNCTION claimguard.roll_up_findings() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- The service writes an audit's findings in one statement; a finding added later (by hand, a restore) to an
    -- input that already had its code must not count the input again.
    INSERT INTO claimguard.finding_rollup
    SELECT (a.received_at AT TIME ZONE 'UTC')::date, f.code, count(*),
           count(DISTINCT f.audit_id) FILTER (WHERE NOT EXISTS (
               SELECT FROM claimguard.finding AS earlier
               WHERE earlier.code = f.code AND earlier.audit_id = f.audit_id
                 AND NOT EXISTS (SELECT FROM new_rows AS n
                                 WHERE n.audit_id = earlier.audit_id AND n.ordinal = earlier.ordinal)))
    FROM new_rows AS f
    JOIN claimguard.verification_audit AS a ON a.id = f.audit_id
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

CREATE TRIGGER verification_audit_rollup AFTER INSERT ON claimguard.verification_audit
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_audits();
CREATE TRIGGER claim_check_rollup AFTER INSERT ON claimguard.claim_check
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_claim_checks();
CREATE TRIGGER finding_rollup AFTER INSERT ON claimguard.finding
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_findings();

-- ---- the rows written before this migration (in the same transaction as the triggers: none is missed or counted twice)

LOCK TABLE claimguard.verification_audit, claimguard.claim_check, claimguard.finding IN SHARE MODE;

INSERT INTO claimguard.audit_rollup
SELECT date_trunc('hour', received_at AT TIME ZONE 'UTC'), source, projection_mode, effective_verdict, downgraded, count(*)
FROM claimguard.verification_audit
GROUP BY 1, 2, 3, 4, 5;
INSERT INTO claimguard.guard_reason_rollup
SELECT date_trunc('hour', a.received_at AT TIME ZONE 'UTC'), r.code, a.downgraded, count(*)
FROM claimguard.verification_audit AS a
CROSS JOIN LATERAL unnest(a.guard_reasons) AS r (code)
GROUP BY 1, 2, 3;
INSERT INTO claimguard.claim_check_rollup
SELECT (a.received_at AT TIME ZONE 'UTC')::date, c.claim_type, c.verification, c.legacy_verification, count(*)
FROM claimguard.claim_check AS c
JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
GROUP BY 1, 2, 3, 4;
INSERT INTO claimguard.finding_rollup
SELECT (a.received_at AT TIME ZONE 'UTC')::date, f.code, count(*), count(DISTINCT f.audit_id)
FROM claimguard.finding AS f
JOIN claimguard.verification_audit AS a ON a.id = f.audit_id
GROUP BY 1, 2;
INSERT INTO claimguard.finding_under_pass_rollup
SELECT a.id, a.request_id, a.received_at, a.model_verdict, f.code, count(*)
FROM claimguard.finding AS f
JOIN claimguard.verification_audit AS a ON a.id = f.audit_id
WHERE a.effective_verdict = 'PASS'
GROUP BY a.id, a.request_id, a.received_at, a.model_verdict, f.code;

-- ---- the views, same columns and answers, now summing the deltas

CREATE OR REPLACE VIEW claimguard.downgrades_per_reason_daily AS
SELECT received_hour::date                                            AS day,
       reason_code,
       sum(input_count)::bigint                                       AS fired_count,
       coalesce(sum(input_count) FILTER (WHERE downgraded), 0)::bigint AS downgraded_count
FROM claimguard.guard_reason_rollup
GROUP BY 1, 2;

CREATE OR REPLACE VIEW claimguard.verification_labels_by_claim_type AS
SELECT claim_type,
       verification,
       legacy_verification,
       sum(claim_count)::bigint AS claim_count
FROM claimguard.claim_check_rollup
GROUP BY 1, 2, 3;

CREATE OR REPLACE VIEW claimguard.verifier_version_share_daily AS
WITH per_day AS (
    SELECT received_hour::date                                                                                     AS day,
           coalesce(sum(input_count) FILTER (WHERE projection_mode IN ('claim_checks', 'claim_checks_replaced')), 0)::bigint
                                                                                                                   AS v2_count,
           coalesce(sum(input_count) FILTER (WHERE projection_mode = 'legacy'), 0)::bigint                          AS v1_count,
           coalesce(sum(input_count) FILTER (WHERE projection_mode = 'none'), 0)::bigint                            AS none_count,
           sum(input_count)::bigint                                                                                AS total_count
    FROM claimguard.audit_rollup
    GROUP BY 1
)
SELECT day,
       v2_count,
       v1_count,
       none_count,
       total_count,
       round(v2_count::numeric / total_count, 4) AS v2_share
FROM per_day;

CREATE OR REPLACE VIEW claimguard.findings_per_code_daily AS
SELECT received_day              AS day,
       code,
       sum(finding_count)::bigint AS finding_count,
       sum(input_count)::bigint   AS input_count
FROM claimguard.finding_rollup
GROUP BY 1, 2;

CREATE OR REPLACE VIEW claimguard.findings_under_pass AS
SELECT audit_id                                 AS id,
       request_id,
       received_at,
       model_verdict,
       sum(finding_count)::bigint               AS finding_count,
       array_agg(DISTINCT code ORDER BY code)   AS codes
FROM claimguard.finding_under_pass_rollup
GROUP BY audit_id, request_id, received_at, model_verdict;

-- The reader reads the rollups (V2's default privileges cover them only when the same role migrates); the writer
-- gets nothing: its triggers write them.
GRANT SELECT ON claimguard.audit_rollup, claimguard.guard_reason_rollup, claimguard.claim_check_rollup,
    claimguard.finding_rollup, claimguard.finding_under_pass_rollup TO claimguard_reader;
