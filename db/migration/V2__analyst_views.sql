-- Views for the questions analysts ask most, and a read-only role to ask them with.
-- Days are UTC calendar days, whatever the session's time zone, so that everybody's "2025-03-10" is the same.

-- The daily views group by the UTC day of received_at; a query for one day (or a few) filters on that
-- expression, which the plain received_at index cannot serve.
CREATE INDEX verification_audit_received_day_utc_idx
    ON claimguard.verification_audit (((received_at AT TIME ZONE 'UTC')::date));

CREATE VIEW claimguard.downgrades_per_reason_daily AS
SELECT (a.received_at AT TIME ZONE 'UTC')::date       AS day,
       r.reason_code,
       count(*)                                       AS fired_count,
       count(*) FILTER (WHERE a.downgraded)           AS downgraded_count
FROM claimguard.verification_audit AS a
CROSS JOIN LATERAL unnest(a.guard_reasons) AS r (reason_code)
GROUP BY 1, 2;

COMMENT ON VIEW claimguard.downgrades_per_reason_daily IS
    'Per UTC day and guard reason code: fired_count = audited inputs where the rule fired (also where it changed '
    'nothing), downgraded_count = those of them whose effective verdict is stricter than the model''s. An input '
    'with two reasons counts under both, so downgraded_count summed over reasons exceeds the downgraded inputs. '
    'Inputs where no rule fired do not appear.';

CREATE VIEW claimguard.verification_labels_by_claim_type AS
SELECT c.claim_type,
       c.verification,
       c.legacy_verification,
       count(*) AS claim_count
FROM claimguard.claim_check AS c
GROUP BY 1, 2, 3;

COMMENT ON VIEW claimguard.verification_labels_by_claim_type IS
    'Claim checks per claim_type, V2 verification label as received (unknown labels and NULL included) and the '
    'legacy label it was projected to. Only V2 inputs have claim checks: V1 facts_checked stay in the audit JSON.';

CREATE VIEW claimguard.verification_labels_by_tool AS
WITH claim_tool AS (
    SELECT c.verification, t.tool_name
    FROM claimguard.claim_check AS c
    -- evidence_refs is stored as received: anything but an array cites no tool rather than failing the view
    LEFT JOIN LATERAL (
        SELECT DISTINCT ref ->> 'tool_name' AS tool_name
        FROM jsonb_array_elements(
                 CASE WHEN jsonb_typeof(c.evidence_refs) = 'array' THEN c.evidence_refs ELSE '[]'::jsonb END) AS ref
        WHERE jsonb_typeof(ref -> 'tool_name') = 'string'
          AND ref ->> 'tool_name' <> ''
    ) AS t ON true
)
SELECT tool_name,
       verification,
       count(*) AS claim_count
FROM claim_tool
GROUP BY 1, 2;

COMMENT ON VIEW claimguard.verification_labels_by_tool IS
    'Claim checks per tool named in their evidence_refs[*].tool_name and V2 verification label. A claim counts '
    'once for every distinct tool it cites (so counts do not sum to the number of claims); a claim that names no '
    'tool (no evidence_refs, refs without a non-empty string tool_name, or evidence_refs not an array) counts once '
    'under tool_name NULL.';

CREATE VIEW claimguard.guard_overruled_pass AS
SELECT a.id,
       a.request_id,
       a.received_at,
       a.effective_verdict,
       a.guard_reasons
FROM claimguard.verification_audit AS a
WHERE a.model_verdict = 'PASS'
  AND a.downgraded;

COMMENT ON VIEW claimguard.guard_overruled_pass IS
    'Audited inputs whose model said PASS and whose guard downgraded the verdict (to LOW_CONFID or REJECT), with '
    'the reason codes that fired. id is verification_audit.id, the audit_id.';

CREATE VIEW claimguard.verifier_version_share_daily AS
WITH per_day AS (
    SELECT (received_at AT TIME ZONE 'UTC')::date                                                AS day,
           count(*) FILTER (WHERE projection_mode IN ('claim_checks', 'claim_checks_replaced'))  AS v2_count,
           count(*) FILTER (WHERE projection_mode = 'legacy')                                    AS v1_count,
           count(*) FILTER (WHERE projection_mode = 'none')                                      AS none_count,
           count(*)                                                                              AS total_count
    FROM claimguard.verification_audit
    GROUP BY 1
)
SELECT day,
       v2_count,
       v1_count,
       none_count,
       total_count,
       round(v2_count::numeric / total_count, 4) AS v2_share
FROM per_day;

COMMENT ON VIEW claimguard.verifier_version_share_daily IS
    'Per UTC day: audited inputs whose verifier emitted claim_checks (V2: projection_mode claim_checks or '
    'claim_checks_replaced), facts_checked only (V1: legacy), or neither (none); v2_share = v2_count / '
    'total_count, all audited inputs of the day, rounded to 4 decimals.';

-- The analyst role. Roles belong to the whole server, which may host many ClaimGuard databases: create it once,
-- and tolerate another database's migration creating it at the same moment.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'claimguard_reader') THEN
        BEGIN
            CREATE ROLE claimguard_reader NOLOGIN;
            COMMENT ON ROLE claimguard_reader IS
                'Read-only analyst access to schema claimguard: GRANT claimguard_reader TO <login>.';
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN
                NULL;
            WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'role claimguard_reader does not exist and % may not create roles', current_user
                    USING HINT = 'As a superuser or CREATEROLE user: CREATE ROLE claimguard_reader NOLOGIN; then migrate again.';
        END;
    END IF;
END
$$;

GRANT USAGE ON SCHEMA claimguard TO claimguard_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA claimguard TO claimguard_reader;
-- Tables and views that later migrations create (as the role running them) are readable too.
ALTER DEFAULT PRIVILEGES IN SCHEMA claimguard GRANT SELECT ON TABLES TO claimguard_reader;
