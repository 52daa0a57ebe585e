-- Findings (issue 15): what ClaimGuard found when it checked the verifier's evidence and the consistency of its
-- output, one row per finding, written by the statement that writes the audit row and its claim checks, so that an
-- audit row never exists without its findings. Append-only like the other audit tables (V3): claimguard_writer may
-- add and read rows, never change or remove them; the audit seal covers them (io.claimguard.seal.SealHash).

CREATE TABLE claimguard.finding (
    audit_id      bigint  NOT NULL REFERENCES claimguard.verification_audit (id),
    ordinal       integer NOT NULL CHECK (ordinal >= 0),
    claim_ordinal integer CHECK (claim_ordinal >= 0),
    code          text    NOT NULL,
    detail        text    NOT NULL,
    -- also serves "the findings of this audit" and the foreign key's lookups: no index of its own on audit_id
    PRIMARY KEY (audit_id, ordinal)
);

COMMENT ON TABLE claimguard.finding IS
    'One row per finding of an audited input: what checking the verifier''s evidence against its tool traces and '
    'its output for consistency found. Recorded beside the verdict; the effective result lists the same findings '
    'under "findings". An input without findings has no rows. Covered by the audit seal.';
COMMENT ON COLUMN claimguard.finding.audit_id IS 'The audit row (verification_audit.id) of the input it was found in.';
COMMENT ON COLUMN claimguard.finding.ordinal IS 'The 0-based position of the finding in the input''s findings.';
COMMENT ON COLUMN claimguard.finding.claim_ordinal IS
    'The claim check it concerns (claim_check.ordinal of the same audit_id); null when it concerns the output as a '
    'whole, or an executor claim that no claim check covers.';
COMMENT ON COLUMN claimguard.finding.code IS
    'Stable finding code, e.g. evidence.unknown_invocation, consistency.contradicted_critical_under_pass.';
COMMENT ON COLUMN claimguard.finding.detail IS 'What exactly, naming the values; never claim text.';

-- which inputs had this finding (the views below, a dashboard's drill-down)
CREATE INDEX finding_code_idx ON claimguard.finding (code, audit_id);

-- The grants V3 gives the other audit tables: nothing is granted by default privileges to the writer.
GRANT SELECT, INSERT ON claimguard.finding TO claimguard_writer;
-- claimguard_reader reads it through V2's default privileges when the same role migrates; said here too, so that
-- it holds however this migration is run.
GRANT SELECT ON claimguard.finding TO claimguard_reader;

CREATE VIEW claimguard.findings_per_code_daily AS
SELECT (a.received_at AT TIME ZONE 'UTC')::date AS day,
       f.code,
       count(*)                                 AS finding_count,
       count(DISTINCT a.id)                     AS input_count
FROM claimguard.finding AS f
JOIN claimguard.verification_audit AS a ON a.id = f.audit_id
GROUP BY 1, 2;

COMMENT ON VIEW claimguard.findings_per_code_daily IS
    'Per UTC day of received_at and finding code: finding_count = findings with that code, input_count = audited '
    'inputs with at least one of them (an input with three unknown invocations counts 3 and 1). Inputs without '
    'findings do not appear.';

CREATE VIEW claimguard.findings_under_pass AS
SELECT a.id,
       a.request_id,
       a.received_at,
       a.model_verdict,
       count(*)                                   AS finding_count,
       array_agg(DISTINCT f.code ORDER BY f.code) AS codes
FROM claimguard.verification_audit AS a
JOIN claimguard.finding AS f ON f.audit_id = a.id
WHERE a.effective_verdict = 'PASS'
GROUP BY a.id, a.request_id, a.received_at, a.model_verdict;

COMMENT ON VIEW claimguard.findings_under_pass IS
    'Audited inputs whose effective verdict is PASS although checking their evidence or consistency found '
    'something: the candidates for a policy that caps on a finding. codes = the distinct finding codes, sorted; '
    'id is verification_audit.id, the audit_id.';

GRANT SELECT ON claimguard.findings_per_code_daily, claimguard.findings_under_pass TO claimguard_reader;

-- The seal now covers the finding rows of a row that has any (a row without findings hashes as before V6).
COMMENT ON TABLE claimguard.audit_seal IS
    'Hash chain over verification_audit, its claim_check rows and its finding rows, one seal per audit row, in seq '
    'order. Check it with claimguard verify-chain (README, "Audit integrity").';
COMMENT ON COLUMN claimguard.audit_seal.hash IS
    'SHA-256 over previous_hash and the canonical content of the audit row, its claim checks and its findings '
    '(only when it has any, so that the seals made before V6 stay valid)';
