-- Bounded storage of hostile input (issue 25, part 5). A rejected input larger than
-- claimguard.dead-letter.max-stored-bytes (default 8 MiB, never below claimguard.limits.max-bytes) keeps only its first
-- bytes in payload; its whole size and whether it was cut are recorded for every row, and payload_sha256 (V1) is, as it
-- always was, the SHA-256 of the whole input. The whole input stays where the service set it aside: the inbox's
-- .error/ folder, the broker's dead-letter queue, the dead-letter topic. payload keeps its name and type for SQL users.
--
-- The rows written before were all kept whole: their size is the length of their payload, none is truncated. The UPDATE
-- runs as the owner (migrations do); the service's claimguard_writer may still only add rows (V3), and V3's grants on
-- the whole table cover the new columns. An instance of an earlier version, which does not write these columns, can no
-- longer record a dead letter once this has run (payload_size is NOT NULL): upgrade every instance together.

ALTER TABLE claimguard.dead_letter
    ADD COLUMN payload_size bigint,
    ADD COLUMN payload_truncated boolean NOT NULL DEFAULT false;

UPDATE claimguard.dead_letter SET payload_size = octet_length(payload);

ALTER TABLE claimguard.dead_letter
    ALTER COLUMN payload_size SET NOT NULL,
    -- every insert says whether it cut the input
    ALTER COLUMN payload_truncated DROP DEFAULT,
    -- a row keeps all of the input or a part of it, and says which
    ADD CONSTRAINT dead_letter_payload_size_check
        CHECK (octet_length(payload) <= payload_size AND payload_truncated = (octet_length(payload) < payload_size));

COMMENT ON COLUMN claimguard.dead_letter.payload IS
    'The input''s exact bytes; for an input larger than claimguard.dead-letter.max-stored-bytes only its first that many '
    '(payload_truncated), the whole of it kept where it was set aside (.error/, the dead-letter queue or topic).';
COMMENT ON COLUMN claimguard.dead_letter.payload_sha256 IS
    'SHA-256 of the whole input, also when payload holds only its first bytes: a retried delivery makes no second row.';
COMMENT ON COLUMN claimguard.dead_letter.payload_size IS 'The whole input''s size in bytes (octet_length(payload) unless truncated).';
COMMENT ON COLUMN claimguard.dead_letter.payload_truncated IS
    'Whether payload holds only the input''s first bytes; such a dead letter cannot be re-driven from this row.';
