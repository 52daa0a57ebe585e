-- Partitioned audit storage (issue 27, part 3). The five audit tables become partitioned by time (PostgreSQL declarative
-- range partitioning), so that old months can be archived and dropped as a whole (claimguard archive) and every index
-- stays as small as a month:
--   verification_audit, claim_check, finding, audit_seal by audited_at, the audit row's service time (the children
--     carry their audit's audited_at, so that a month's claim checks, findings and seals lie in the same month as
--     their audit and the foreign keys (audit_id, audited_at) can reference the partitioned audit table);
--   dead_letter by recorded_at, its service time.
-- One partition per UTC calendar month, named <table>_YYYY_MM, created ahead of time by
-- claimguard.create_audit_partitions (here, and after every migration run: afterMigrate.sql, as the owner), and one
-- DEFAULT partition per table, so that a row is never refused for want of a partition.
--
-- A unique constraint of a partitioned table must contain the partition key, so the keys that must hold across all
-- partitions move to narrow, unpartitioned key tables, which retention never drops:
--   audit_input_key    (input_sha256) -> audit_id, audited_at: an input's exact bytes are audited once (the index keeps
--                      its name verification_audit_input_sha256_key), and an audit id is used once;
--   dead_letter_key    (source, source_ref, payload_sha256) -> dead_letter_id, recorded_at: a delivery's rejection is
--                      recorded once (dead_letter_delivery_key), and what redrive_of refers to;
--   audit_seal_key     seq -> previous_hash: one successor per seal (audit_seal_previous_hash_key), a seq used once.
-- The service's write path inserts the key row first (INSERT ... ON CONFLICT DO NOTHING, as it did on the audit
-- table), and a row trigger on each partitioned table (SECURITY DEFINER, as the owner) adds the key of any row
-- inserted otherwise and refuses a row whose key belongs to another row: the guarantees hold whoever inserts.
--
-- This migration takes an existing database there: the old tables are renamed with their indexes (suffix _v13), the
-- partitioned ones created, the rows copied, the old tables dropped; then the indexes (same names), foreign keys,
-- grants, views and the rollup triggers of V13 are made again on the partitioned tables. Rows and seals are copied as
-- they are: every seal stays valid (the seal's content does not include the new audited_at copies).

LOCK TABLE claimguard.verification_audit, claimguard.claim_check, claimguard.finding, claimguard.audit_seal,
    claimguard.dead_letter, claimguard.replay_outcome IN ACCESS EXCLUSIVE MODE;

-- ---- set the old tables aside

-- they reference the old tables by oid; made again below
DROP VIEW claimguard.verification_labels_by_tool;
DROP VIEW claimguard.guard_overruled_pass;
ALTER TABLE claimguard.replay_outcome DROP CONSTRAINT replay_outcome_audit_id_fkey;

DO $$
DECLARE
    old_table text;
    old_index record;
BEGIN
    FOREACH old_table IN ARRAY ARRAY['verification_audit', 'claim_check', 'finding', 'audit_seal', 'dead_letter'] LOOP
        FOR old_index IN
            SELECT c.relname
            FROM pg_catalog.pg_index AS i
            JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
            WHERE i.indrelid = ('claimguard.' || old_table)::regclass
        LOOP
            EXECUTE format('ALTER INDEX claimguard.%I RENAME TO %I', old_index.relname, old_index.relname || '_v13');
        END LOOP;
        EXECUTE format('ALTER TABLE claimguard.%I RENAME TO %I', old_table, old_table || '_v13');
    END LOOP;
END
$$;

-- ---- the partitioned tables: the same columns, defaults, checks and column comments (LIKE), plus the partition key

CREATE TABLE claimguard.verification_audit (
    LIKE claimguard.verification_audit_v13 INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS
) PARTITION BY RANGE (audited_at);

CREATE TABLE claimguard.claim_check (
    LIKE claimguard.claim_check_v13 INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS,
    audited_at timestamptz NOT NULL
) PARTITION BY RANGE (audited_at);

CREATE TABLE claimguard.finding (
    LIKE claimguard.finding_v13 INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS,
    audited_at timestamptz NOT NULL
) PARTITION BY RANGE (audited_at);

CREATE TABLE claimguard.audit_seal (
    LIKE claimguard.audit_seal_v13 INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS,
    audited_at timestamptz NOT NULL
) PARTITION BY RANGE (audited_at);

CREATE TABLE claimguard.dead_letter (
    LIKE claimguard.dead_letter_v13 INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS
) PARTITION BY RANGE (recorded_at);

DO $$
DECLARE
    moved text;
BEGIN
    FOREACH moved IN ARRAY ARRAY['verification_audit', 'claim_check', 'finding', 'audit_seal', 'dead_letter'] LOOP
        EXECUTE format('COMMENT ON TABLE claimguard.%I IS %L', moved,
                       obj_description(('claimguard.' || moved || '_v13')::regclass, 'pg_class'));
    END LOOP;
END
$$;

COMMENT ON COLUMN claimguard.claim_check.audited_at IS
    'Its audit row''s audited_at (the partition key): the claim check lies in the same monthly partition as its audit.';
COMMENT ON COLUMN claimguard.finding.audited_at IS
    'Its audit row''s audited_at (the partition key): the finding lies in the same monthly partition as its audit.';
COMMENT ON COLUMN claimguard.audit_seal.audited_at IS
    'The sealed audit row''s audited_at (the partition key): a seal lies in the same monthly partition as its audit. '
    'Not covered by the hash.';

-- the sequences keep their names and grants; they now belong to the new tables (dropping the old ones keeps them)
ALTER SEQUENCE claimguard.verification_audit_id_seq OWNED BY claimguard.verification_audit.id;
ALTER SEQUENCE claimguard.dead_letter_id_seq OWNED BY claimguard.dead_letter.id;
ALTER SEQUENCE claimguard.audit_seal_seq_seq OWNED BY claimguard.audit_seal.seq;

-- ---- partitions

CREATE TABLE claimguard.verification_audit_default PARTITION OF claimguard.verification_audit DEFAULT;
CREATE TABLE claimguard.claim_check_default PARTITION OF claimguard.claim_check DEFAULT;
CREATE TABLE claimguard.finding_default PARTITION OF claimguard.finding DEFAULT;
CREATE TABLE claimguard.audit_seal_default PARTITION OF claimguard.audit_seal DEFAULT;
CREATE TABLE claimguard.dead_letter_default PARTITION OF claimguard.dead_letter DEFAULT;

-- Creates, for every UTC month from first_month through months_ahead months after the current one, the month's
-- partition of each audit table that does not have it yet; returns how many it created. A month whose rows already
-- went to the DEFAULT partition (no partition existed when they were written) gets no partition: its rows stay where
-- they are (the NOTICE says which), and the months after it are created as usual.
CREATE FUNCTION claimguard.create_audit_partitions(first_month date, months_ahead integer) RETURNS integer
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    month_start date := date_trunc('month', first_month)::date;
    last_month  date := (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => months_ahead))::date;
    audit_table text;
    partition_name text;
    created integer := 0;
BEGIN
    WHILE month_start <= last_month LOOP
        FOREACH audit_table IN ARRAY ARRAY['verification_audit', 'claim_check', 'finding', 'audit_seal', 'dead_letter'] LOOP
            partition_name := audit_table || '_' || to_char(month_start, 'YYYY_MM');
            IF to_regclass('claimguard.' || partition_name) IS NULL THEN
                BEGIN
                    EXECUTE format('CREATE TABLE claimguard.%I PARTITION OF claimguard.%I FOR VALUES FROM (%L) TO (%L)',
                                   partition_name, audit_table, month_start::timestamp AT TIME ZONE 'UTC',
                                   (month_start + interval '1 month')::timestamp AT TIME ZONE 'UTC');
                    created := created + 1;
                EXCEPTION
                    WHEN check_violation THEN
                        RAISE NOTICE 'claimguard.%: rows of % are in the default partition; no partition made for it',
                            audit_table, to_char(month_start, 'YYYY-MM');
                    -- another instance starting at the same moment made it first
                    WHEN duplicate_table OR unique_violation THEN
                        NULL;
                END;
            END IF;
        END LOOP;
        month_start := (month_start + interval '1 month')::date;
    END LOOP;
    RETURN created;
END
$$;

COMMENT ON FUNCTION claimguard.create_audit_partitions(date, integer) IS
    'Creates the monthly partitions (UTC) of the audit tables from first_month through months_ahead months after the '
    'current one; run as the owner after every migration (afterMigrate.sql). The runtime role cannot create tables.';
REVOKE EXECUTE ON FUNCTION claimguard.create_audit_partitions(date, integer) FROM PUBLIC;

SELECT claimguard.create_audit_partitions(
    least((SELECT min(audited_at) FROM claimguard.verification_audit_v13),
          (SELECT min(recorded_at) FROM claimguard.dead_letter_v13),
          now())::date,
    3);

-- ---- the rows, as they are

INSERT INTO claimguard.dead_letter SELECT * FROM claimguard.dead_letter_v13;
INSERT INTO claimguard.verification_audit SELECT * FROM claimguard.verification_audit_v13;
INSERT INTO claimguard.claim_check
SELECT c.*, a.audited_at FROM claimguard.claim_check_v13 AS c JOIN claimguard.verification_audit_v13 AS a ON a.id = c.audit_id;
INSERT INTO claimguard.finding
SELECT f.*, a.audited_at FROM claimguard.finding_v13 AS f JOIN claimguard.verification_audit_v13 AS a ON a.id = f.audit_id;
INSERT INTO claimguard.audit_seal
SELECT s.*, a.audited_at FROM claimguard.audit_seal_v13 AS s JOIN claimguard.verification_audit_v13 AS a ON a.id = s.audit_id;

-- ---- the key tables

CREATE TABLE claimguard.audit_input_key (
    input_sha256 bytea       NOT NULL,
    audit_id     bigint      NOT NULL,
    audited_at   timestamptz NOT NULL,
    CONSTRAINT verification_audit_input_sha256_key PRIMARY KEY (input_sha256),
    CONSTRAINT audit_input_key_audit_id_key UNIQUE (audit_id),
    -- what the claim checks, findings and seals refer to (below)
    CONSTRAINT audit_input_key_audit_id_audited_at_key UNIQUE (audit_id, audited_at)
);
COMMENT ON TABLE claimguard.audit_input_key IS
    'One row per audit row ever written, kept when its partition is archived and dropped: an input''s exact bytes '
    '(input_sha256) are audited once across all partitions, and an audit id names one audit. audited_at says which '
    'partition (or archive) holds the row.';

CREATE TABLE claimguard.dead_letter_key (
    source         text        NOT NULL,
    source_ref     text        NOT NULL,
    payload_sha256 bytea       NOT NULL,
    dead_letter_id bigint      NOT NULL,
    recorded_at    timestamptz NOT NULL,
    CONSTRAINT dead_letter_delivery_key PRIMARY KEY (source, source_ref, payload_sha256),
    CONSTRAINT dead_letter_key_dead_letter_id_key UNIQUE (dead_letter_id)
);
COMMENT ON TABLE claimguard.dead_letter_key IS
    'One row per dead letter ever recorded, kept when its partition is archived and dropped: the same delivery retried '
    'records its rejection once across all partitions, and redrive_of refers to a dead letter that was recorded.';

CREATE TABLE claimguard.audit_seal_key (
    seq           bigint NOT NULL,
    previous_hash bytea  NOT NULL,
    CONSTRAINT audit_seal_key_pkey PRIMARY KEY (seq),
    -- one successor per seal: two sealers racing cannot fork the chain
    CONSTRAINT audit_seal_previous_hash_key UNIQUE (previous_hash)
);
COMMENT ON TABLE claimguard.audit_seal_key IS
    'One row per seal ever made, kept when its partition is archived and dropped: a seq is used once and a seal has '
    'one successor across all partitions.';

INSERT INTO claimguard.audit_input_key SELECT input_sha256, id, audited_at FROM claimguard.verification_audit;
INSERT INTO claimguard.dead_letter_key
SELECT source, source_ref, payload_sha256, id, recorded_at FROM claimguard.dead_letter;
INSERT INTO claimguard.audit_seal_key SELECT seq, previous_hash FROM claimguard.audit_seal;

-- ---- drop the old tables (the rollup triggers of V13 go with them; made again below)

DROP TABLE claimguard.finding_v13, claimguard.claim_check_v13, claimguard.audit_seal_v13,
    claimguard.verification_audit_v13, claimguard.dead_letter_v13;

-- ---- keys and indexes, with the names they had
--
-- The claim checks, findings and seals refer to their audit through its key, which is bound to exactly one audit row
-- (the trigger below): a foreign key to the partitioned audit table would cost a lookup through every partition per
-- row (six times the insert's time for claim checks, measured), and would stop a month's audit partition from being
-- dropped before its children.

ALTER TABLE claimguard.dead_letter
    ADD CONSTRAINT dead_letter_pkey PRIMARY KEY (id, recorded_at),
    ADD CONSTRAINT dead_letter_redrive_of_fkey FOREIGN KEY (redrive_of)
        REFERENCES claimguard.dead_letter_key (dead_letter_id);
CREATE INDEX dead_letter_received_at_idx ON claimguard.dead_letter (received_at);
CREATE INDEX dead_letter_reason_code_idx ON claimguard.dead_letter (reason_code);
CREATE INDEX dead_letter_redrive_of_idx ON claimguard.dead_letter (redrive_of) WHERE redrive_of IS NOT NULL;

ALTER TABLE claimguard.verification_audit
    ADD CONSTRAINT verification_audit_pkey PRIMARY KEY (id, audited_at),
    ADD CONSTRAINT verification_audit_redrive_of_fkey FOREIGN KEY (redrive_of)
        REFERENCES claimguard.dead_letter_key (dead_letter_id);
CREATE INDEX verification_audit_request_id_idx ON claimguard.verification_audit (request_id);
CREATE INDEX verification_audit_received_at_idx ON claimguard.verification_audit (received_at);
CREATE INDEX verification_audit_effective_verdict_idx ON claimguard.verification_audit (effective_verdict, received_at);
CREATE INDEX verification_audit_guard_reasons_idx ON claimguard.verification_audit USING gin (guard_reasons);
CREATE INDEX verification_audit_audit_idx ON claimguard.verification_audit USING gin (audit jsonb_path_ops);
CREATE INDEX verification_audit_received_day_utc_idx
    ON claimguard.verification_audit (((received_at AT TIME ZONE 'UTC')::date));
CREATE INDEX verification_audit_redrive_of_idx ON claimguard.verification_audit (redrive_of)
    WHERE redrive_of IS NOT NULL;

ALTER TABLE claimguard.claim_check
    ADD CONSTRAINT claim_check_pkey PRIMARY KEY (audit_id, ordinal, audited_at),
    ADD CONSTRAINT claim_check_audit_id_fkey FOREIGN KEY (audit_id, audited_at)
        REFERENCES claimguard.audit_input_key (audit_id, audited_at);
CREATE INDEX claim_check_verification_idx ON claimguard.claim_check (verification);
CREATE INDEX claim_check_claim_type_idx ON claimguard.claim_check (claim_type);

ALTER TABLE claimguard.finding
    ADD CONSTRAINT finding_pkey PRIMARY KEY (audit_id, ordinal, audited_at),
    ADD CONSTRAINT finding_audit_id_fkey FOREIGN KEY (audit_id, audited_at)
        REFERENCES claimguard.audit_input_key (audit_id, audited_at);
CREATE INDEX finding_code_idx ON claimguard.finding (code, audit_id);

ALTER TABLE claimguard.audit_seal
    ADD CONSTRAINT audit_seal_pkey PRIMARY KEY (seq, audited_at),
    ADD CONSTRAINT audit_seal_audit_id_key UNIQUE (audit_id, audited_at),
    ADD CONSTRAINT audit_seal_audit_id_fkey FOREIGN KEY (audit_id, audited_at)
        REFERENCES claimguard.audit_input_key (audit_id, audited_at);
CREATE INDEX audit_seal_sealed_at_idx ON claimguard.audit_seal (sealed_at);

-- a replay outcome stays valid when its audit's partition is archived: it refers to the key, which is kept
ALTER TABLE claimguard.replay_outcome ADD CONSTRAINT replay_outcome_audit_id_fkey FOREIGN KEY (audit_id)
    REFERENCES claimguard.audit_input_key (audit_id);

-- ---- the triggers that keep the key tables whoever inserts
--
-- Row triggers, not statement triggers: an audit row's key must exist before the foreign keys of the claim checks and
-- findings that the same statement inserts after it are checked (after-row events fire in the order the rows were
-- inserted, a statement trigger's after all of them).

CREATE FUNCTION claimguard.key_audit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO claimguard.audit_input_key (input_sha256, audit_id, audited_at)
    VALUES (NEW.input_sha256, NEW.id, NEW.audited_at)
    ON CONFLICT DO NOTHING;
    IF NOT EXISTS (SELECT FROM claimguard.audit_input_key AS k
                   WHERE k.input_sha256 = NEW.input_sha256 AND k.audit_id = NEW.id AND k.audited_at = NEW.audited_at) THEN
        RAISE unique_violation USING
            MESSAGE = 'duplicate key value violates unique constraint "verification_audit_input_sha256_key"',
            DETAIL = format('an audit row with the same input_sha256 or id %s exists (claimguard.audit_input_key)', NEW.id),
            CONSTRAINT = 'verification_audit_input_sha256_key', SCHEMA = 'claimguard', TABLE = 'verification_audit';
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION claimguard.key_dead_letter() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO claimguard.dead_letter_key (source, source_ref, payload_sha256, dead_letter_id, recorded_at)
    VALUES (NEW.source, NEW.source_ref, NEW.payload_sha256, NEW.id, NEW.recorded_at)
    ON CONFLICT DO NOTHING;
    IF NOT EXISTS (SELECT FROM claimguard.dead_letter_key AS k
                   WHERE k.source = NEW.source AND k.source_ref = NEW.source_ref
                     AND k.payload_sha256 = NEW.payload_sha256 AND k.dead_letter_id = NEW.id
                     AND k.recorded_at = NEW.recorded_at) THEN
        RAISE unique_violation USING
            MESSAGE = 'duplicate key value violates unique constraint "dead_letter_delivery_key"',
            DETAIL = format('a dead letter of the same delivery or with id %s exists (claimguard.dead_letter_key)', NEW.id),
            CONSTRAINT = 'dead_letter_delivery_key', SCHEMA = 'claimguard', TABLE = 'dead_letter';
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION claimguard.key_seal() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- a seal put back as it was (a restore) finds its own key; any other seal whose seq or previous_hash is taken
    -- is refused
    INSERT INTO claimguard.audit_seal_key (seq, previous_hash) VALUES (NEW.seq, NEW.previous_hash)
    ON CONFLICT DO NOTHING;
    IF NOT EXISTS (SELECT FROM claimguard.audit_seal_key AS k
                   WHERE k.seq = NEW.seq AND k.previous_hash = NEW.previous_hash) THEN
        RAISE unique_violation USING
            MESSAGE = 'duplicate key value violates unique constraint "audit_seal_previous_hash_key"',
            DETAIL = format('a seal with seq %s or the same previous_hash exists (claimguard.audit_seal_key)', NEW.seq),
            CONSTRAINT = 'audit_seal_previous_hash_key', SCHEMA = 'claimguard', TABLE = 'audit_seal';
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER verification_audit_key AFTER INSERT ON claimguard.verification_audit
    FOR EACH ROW EXECUTE FUNCTION claimguard.key_audit();
CREATE TRIGGER dead_letter_key AFTER INSERT ON claimguard.dead_letter
    FOR EACH ROW EXECUTE FUNCTION claimguard.key_dead_letter();
CREATE TRIGGER audit_seal_key AFTER INSERT ON claimguard.audit_seal
    FOR EACH ROW EXECUTE FUNCTION claimguard.key_seal();

-- V13's rollups, on the partitioned tables (a statement trigger with transition tables on the partitioned root sees
-- the rows of every partition the statement inserted into)
CREATE TRIGGER verification_audit_rollup AFTER INSERT ON claimguard.verification_audit
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_audits();
CREATE TRIGGER claim_check_rollup AFTER INSERT ON claimguard.claim_check
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_claim_checks();
CREATE TRIGGER finding_rollup AFTER INSERT ON claimguard.finding
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimguard.roll_up_findings();

-- ---- the views of V2 that read the audit tables, as they were

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

-- ---- what retention archived (claimguard archive): one row per archive, inserted in the transaction that drops the
-- archived partitions. The service's checkpoint writer starts its Merkle tree from the newest row's compact range
-- when it starts after an archive (the archived seals' hashes are no longer in the database).

CREATE TABLE claimguard.audit_archive (
    last_seq      bigint      PRIMARY KEY,
    first_seq     bigint      NOT NULL,
    tree_size     bigint      NOT NULL CHECK (tree_size > 0),
    last_hash     bytea       NOT NULL CHECK (octet_length(last_hash) = 32),
    -- the RFC 6962 compact range of the first tree_size leaves (io.claimguard.merkle.CompactRange)
    compact_range bytea[]     NOT NULL,
    file_name     text        NOT NULL,
    months        text[]      NOT NULL,
    checkpoint    text        NOT NULL,
    archived_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
COMMENT ON TABLE claimguard.audit_archive IS
    'One row per archive claimguard archive wrote before dropping its months: the seal range, the Merkle tree up to its '
    'last seal (the checkpoint writer goes on from it), the file and its signed checkpoint. Written by the owner only.';

-- ---- grants: as V3 and V6 gave them, plus the keys the write path inserts first (the seal keys are the trigger's)

GRANT SELECT, INSERT ON claimguard.verification_audit, claimguard.claim_check, claimguard.dead_letter,
    claimguard.audit_seal, claimguard.finding, claimguard.audit_input_key, claimguard.dead_letter_key
    TO claimguard_writer;
-- the checkpoint writer (as the writer) reads where the archives end
GRANT SELECT ON claimguard.audit_archive TO claimguard_writer;
GRANT SELECT ON claimguard.verification_audit, claimguard.claim_check, claimguard.dead_letter, claimguard.audit_seal,
    claimguard.finding, claimguard.audit_input_key, claimguard.dead_letter_key, claimguard.audit_seal_key,
    claimguard.audit_archive,
    claimguard.verification_labels_by_tool, claimguard.guard_overruled_pass TO claimguard_reader;
