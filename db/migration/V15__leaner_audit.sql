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
-- finding_code_idx stays: no view reads it since V13, but with it the finding rollup trigger's look-up of earlier
-- findings is one anti-join per statement; without it the planner runs it once per new finding row, a scan of the
-- statement's new rows each time (21,000 findings in one statement: 19 s against 1.2 s).
