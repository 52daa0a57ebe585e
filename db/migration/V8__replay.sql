-- Replay (claimguard replay, issue 15 item 5): stored audits re-judged under another policy. The outcomes go to
-- tables of their own; the audit rows are never touched. Append-only like the audit tables: a run and its outcomes
-- are inserted once, in one transaction, and never changed (no grant of UPDATE or DELETE to anyone but the owner).

CREATE TABLE claimguard.replay_run (
    id          bigserial   PRIMARY KEY,
    policy      text        NOT NULL,
    policy_caps text        NOT NULL,
    selection   text        NOT NULL,
    started_at  timestamptz NOT NULL,
    audits      integer     NOT NULL,
    changed     integer     NOT NULL
);

COMMENT ON TABLE claimguard.replay_run IS
    'One replay: the stored audits selected and re-judged under a policy (claimguard replay). Its outcomes are in replay_outcome.';
COMMENT ON COLUMN claimguard.replay_run.policy IS 'The id of the policy replayed under, <name>@<version>';
COMMENT ON COLUMN claimguard.replay_run.policy_caps IS
    'That policy''s caps as the command was given them, e.g. "rule-caps gatekeeper.fail=REJECT; finding-caps none"';
COMMENT ON COLUMN claimguard.replay_run.selection IS 'The selection, as the command''s options, e.g. "--verdict PASS --since 2026-12-03T00:00:00Z" or "--all"';
COMMENT ON COLUMN claimguard.replay_run.audits IS 'How many audits were replayed';
COMMENT ON COLUMN claimguard.replay_run.changed IS 'How many of them got another effective verdict';

CREATE TABLE claimguard.replay_outcome (
    run_id           bigint NOT NULL REFERENCES claimguard.replay_run (id),
    audit_id         bigint NOT NULL REFERENCES claimguard.verification_audit (id),
    recorded_policy  text   NOT NULL,
    recorded_verdict text   NOT NULL,
    replayed_verdict text   NOT NULL,
    replayed_reasons text[] NOT NULL,
    PRIMARY KEY (run_id, audit_id)
);

COMMENT ON TABLE claimguard.replay_outcome IS 'What one audit''s verdict became in one replay run';
COMMENT ON COLUMN claimguard.replay_outcome.recorded_policy IS
    'The policy the audit row records (verification_audit.policy; default@1 for rows written before it existed)';
COMMENT ON COLUMN claimguard.replay_outcome.recorded_verdict IS 'The audit row''s effective_verdict';
COMMENT ON COLUMN claimguard.replay_outcome.replayed_verdict IS 'The effective verdict under the run''s policy';
COMMENT ON COLUMN claimguard.replay_outcome.replayed_reasons IS 'The reason codes under the run''s policy, in order';

-- "which runs replayed this audit"
CREATE INDEX replay_outcome_audit_id_idx ON claimguard.replay_outcome (audit_id);

-- A replay is a tool run with an operator's login (the owner, or a login granted SELECT, INSERT on these two tables
-- and USAGE on replay_run_id_seq), never by the service: claimguard_writer gets nothing here, so that the runtime role
-- keeps exactly the privileges the service needs. Analysts read the runs.
GRANT SELECT ON claimguard.replay_run, claimguard.replay_outcome TO claimguard_reader;
