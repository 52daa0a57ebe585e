-- An append-only audit. The service's runtime connections act as claimguard_writer (SET ROLE), which may add
-- audit rows and read them back but not change or remove them; migrations keep running as the owner.
-- Each audit row is then sealed into a hash chain in claimguard.audit_seal, so that a change made behind the
-- service's back (by the owner or a superuser, whom no grant can stop) is detected by the verify command.

-- The seal of one audit row: SHA-256 over previous_hash and the row's canonical content (the Java class
-- io.claimguard.seal.SealHash defines it). The chain runs in seq order; the first seal's previous_hash is 32
-- zero bytes. Insert-only, like the audit tables: the writer cannot UPDATE, so a seal is never amended.
CREATE TABLE claimguard.audit_seal (
    seq           bigserial   PRIMARY KEY,
    audit_id      bigint      NOT NULL,
    previous_hash bytea       NOT NULL,
    hash          bytea       NOT NULL,
    -- clock_timestamp(), not the transaction's start: the sealer relies on seals being dated after the rows
    -- they seal became visible (see AuditSealer)
    sealed_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT audit_seal_audit_id_key UNIQUE (audit_id),
    CONSTRAINT audit_seal_audit_id_fkey FOREIGN KEY (audit_id) REFERENCES claimguard.verification_audit (id),
    -- one successor per seal: two sealers racing cannot fork the chain
    CONSTRAINT audit_seal_previous_hash_key UNIQUE (previous_hash),
    CONSTRAINT audit_seal_hash_length CHECK (octet_length(previous_hash) = 32 AND octet_length(hash) = 32)
);

COMMENT ON TABLE claimguard.audit_seal IS
    'Hash chain over verification_audit and its claim_check rows, one seal per audit row, in seq order. '
    'Check it with io.claimguard.tools.VerifyAuditChain (README, "Audit integrity").';
COMMENT ON COLUMN claimguard.audit_seal.previous_hash IS 'hash of the seal before this one in seq order; 32 zero bytes for the first';
COMMENT ON COLUMN claimguard.audit_seal.hash IS 'SHA-256 over previous_hash and the canonical content of the audit row and its claim checks';
COMMENT ON COLUMN claimguard.audit_seal.sealed_at IS 'When the seal was written; informational, not covered by the hash';

-- the sealer looks for the newest seal older than its full-scan interval
CREATE INDEX audit_seal_sealed_at_idx ON claimguard.audit_seal (sealed_at);

-- The runtime role. Like claimguard_reader (V2), it belongs to the whole server, which may host many ClaimGuard
-- databases: create it once, and tolerate another database's migration creating it at the same moment.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'claimguard_writer') THEN
        BEGIN
            CREATE ROLE claimguard_writer NOLOGIN;
            COMMENT ON ROLE claimguard_writer IS
                'ClaimGuard''s runtime role: adds and reads audit rows in schema claimguard, never changes or removes them. '
                'The service''s login takes it with SET ROLE (claimguard.database.runtime-role).';
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN
                NULL;
            WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'role claimguard_writer does not exist and % may not create roles', current_user
                    USING HINT = 'As a superuser or CREATEROLE user: CREATE ROLE claimguard_writer NOLOGIN; then migrate again.';
        END;
    END IF;
END
$$;

-- Exactly what the service's statements need: the audit insert (nextval, INSERT ... ON CONFLICT DO NOTHING,
-- RETURNING, the duplicate lookup), the dead_letter insert and the sealer. Nothing is granted by default
-- privileges: a table added later is writable only when its migration says so.
GRANT USAGE ON SCHEMA claimguard TO claimguard_writer;
GRANT SELECT, INSERT ON claimguard.verification_audit, claimguard.claim_check, claimguard.dead_letter,
    claimguard.audit_seal TO claimguard_writer;
GRANT USAGE ON SEQUENCE claimguard.verification_audit_id_seq, claimguard.dead_letter_id_seq,
    claimguard.audit_seal_seq_seq TO claimguard_writer;
