-- The outcome of each verify-chain run, so that status answers from the last verification (how far the chain was
-- verified, when, from which signed checkpoint) instead of re-reading the whole history. Insert-only, like the audit
-- tables. It says what a verify-chain run found; the proof itself stays the chain and the signed checkpoints kept
-- outside the database, which verify-chain checks again each time.
CREATE TABLE claimguard.chain_verification (
    id                  bigserial   PRIMARY KEY,
    verified_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    mode                text        NOT NULL CHECK (mode IN ('full', 'incremental')),
    -- the walk began after this seal (the trusted checkpoint's head); null: at the chain's start
    from_seq            bigint,
    -- the last seal found intact; null when none was
    through_seq         bigint,
    seals_verified      bigint      NOT NULL,
    intact              boolean     NOT NULL,
    first_break         text,
    -- the signed checkpoint an incremental run started from; null for a full run without checkpoints
    checkpoint_size     bigint,
    checkpoint_head_seq bigint,
    CONSTRAINT chain_verification_break CHECK (intact = (first_break IS NULL))
);

COMMENT ON TABLE claimguard.chain_verification IS
    'One row per verify-chain run: what it verified and what it found. claimguard status reports the newest.';

-- verify-chain records its run with the login it is given: the service's login (acting as claimguard_writer) may
-- add a row, never change one; claimguard_reader reads it (V2's default privileges) and cannot record.
GRANT SELECT, INSERT ON claimguard.chain_verification TO claimguard_writer;
GRANT USAGE ON SEQUENCE claimguard.chain_verification_id_seq TO claimguard_writer;
