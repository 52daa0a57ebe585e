-- Less disk per audit (issue 27): drop the indexes no documented query reads. Nothing here changes a row, so every
-- seal stays valid. Written for the audit tables as plain tables and as partitioned tables alike (the measurements,
-- the readers of each index and the plans are in openspec/changes/archive/2026-12-05-leaner-audit/design.md).
--
-- The audit document keeps PostgreSQL's default compression, pglz: lz4 was measured on the growth harness's
-- documents and stores them larger (2,151 against 1,903 bytes per audit, and over the 1,996 bytes of one TOAST chunk,
-- so 2,398 against 1,918 bytes of TOAST per audit).

-- Indexes no query of the service, the explorer, the analyst views, db/queries or the docs reads. On a partitioned
-- table DROP INDEX of the parent's index drops its partitions' indexes with it.
--   the whole audit document (jsonb_path_ops): serves only @>, @? and @@ on audit, which nothing uses; 214 bytes per
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
