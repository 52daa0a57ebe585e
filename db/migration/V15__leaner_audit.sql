-- Less disk per audit (issue 27): drop the indexes no documented query reads, and compress the large values with
-- lz4. Nothing here changes a row, so every seal stays valid. Written for the audit tables as plain tables and as
-- partitioned tables alike (the measurements, the readers of each index and the plans are in
-- openspec/changes/archive/2026-12-05-leaner-audit/design.md).

-- Indexes no query of the service, the explorer, the analyst views, db/queries or the docs reads. On a partitioned
-- table DROP INDEX of the parent's index drops its partitions' indexes with it.
--   the whole audit document (jsonb_path_ops): serves only @>, @? and @@ on audit, which nothing uses; 270 bytes per
--   audit, the largest index of all
DROP INDEX IF EXISTS claimguard.verification_audit_audit_idx;
--   the UTC day of received_at: the daily views it served read the rollups of V13 since
DROP INDEX IF EXISTS claimguard.verification_audit_received_day_utc_idx;
--   the labels of claim checks: the label views group all rows (or read claim_check_rollup); nothing filters on them
DROP INDEX IF EXISTS claimguard.claim_check_verification_idx;
DROP INDEX IF EXISTS claimguard.claim_check_claim_type_idx;
--   findings by code: the finding views read the rollups of V13; the finding rollup trigger's look-up of an audit's
--   earlier findings is served by finding_pkey (audit_id, ordinal) as well
DROP INDEX IF EXISTS claimguard.finding_code_idx;

-- lz4 for the values that grow with the input: the audit document, a claim check's evidence references and a dead
-- letter's bytes. It applies to values written from now on (rows written before keep their pglz or uncompressed
-- values until an operator rewrites them, docs/operating.md). ALTER TABLE ... SET COMPRESSION does not recurse to
-- existing partitions on PostgreSQL 15, so it is set on the table and on each of its partitions; a partition made
-- later with PARTITION OF takes the parent's setting.
DO $$
DECLARE
    target record;
BEGIN
    FOR target IN
        SELECT relation, c.column_name
        FROM (VALUES ('claimguard.verification_audit', 'audit'),
                     ('claimguard.claim_check', 'evidence_refs'),
                     ('claimguard.dead_letter', 'payload')) AS c (table_name, column_name)
        CROSS JOIN LATERAL (
            SELECT c.table_name::regclass
            UNION
            SELECT relid FROM pg_partition_tree(c.table_name::regclass)) AS t (relation)
    LOOP
        EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION lz4', target.relation, target.column_name);
    END LOOP;
END
$$;
