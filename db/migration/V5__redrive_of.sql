-- Re-drive: a dead-lettered input processed again (claimguard redrive) records the dead letter it came from.
-- Adding a nullable column leaves every existing row as it is (no rewrite, no default): the tables stay append-only,
-- and the grants of V3 (SELECT, INSERT on the whole table) already let claimguard_writer insert the new column.
-- The views of V2 name their columns and are unchanged; claimguard_reader's SELECT covers the new column.

ALTER TABLE claimguard.verification_audit
    ADD COLUMN redrive_of bigint REFERENCES claimguard.dead_letter (id);
ALTER TABLE claimguard.dead_letter
    ADD COLUMN redrive_of bigint REFERENCES claimguard.dead_letter (id);

COMMENT ON COLUMN claimguard.verification_audit.redrive_of IS
    'The dead letter this input was re-driven from (claimguard redrive, JMS property ClaimGuardRedriveOf); null for '
    'every other input. Covered by the audit seal when not null.';
COMMENT ON COLUMN claimguard.dead_letter.redrive_of IS
    'The dead letter this input was re-driven from and that it was dead-lettered again; null for every other input. '
    'The earlier row is never changed: a re-drive makes a new row.';

-- the re-drive command asks which dead letters were re-driven before, and what became of them
CREATE INDEX verification_audit_redrive_of_idx ON claimguard.verification_audit (redrive_of)
    WHERE redrive_of IS NOT NULL;
CREATE INDEX dead_letter_redrive_of_idx ON claimguard.dead_letter (redrive_of) WHERE redrive_of IS NOT NULL;
