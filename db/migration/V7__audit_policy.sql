-- Each audit row records the judgement policy that judged it (issue 15, item 4), so that a replay can say under which
-- policy a verdict was reached. Adding a nullable column leaves every existing row as it is (no rewrite, no default):
-- the tables stay append-only, and V3's grants (SELECT, INSERT on the whole table) cover the new column.

ALTER TABLE claimguard.verification_audit ADD COLUMN policy text;

COMMENT ON COLUMN claimguard.verification_audit.policy IS
    'The judgement policy that judged this input, <name>@<version> (claimguard.policy). Null for rows written before '
    'this column existed: they were judged by the contract''s guard, i.e. default@1. Covered by the audit seal when not null.';
