-- Flyway runs this as the owner after every migrate, also when there was nothing to migrate, i.e. at every start of
-- the service: the audit tables' monthly partitions exist three months ahead (V14), so that a row goes to the DEFAULT
-- partition only when the service ran for more than three months without a restart or a migrate. Before V14 there is
-- nothing to do.
DO $$
BEGIN
    IF to_regprocedure('claimguard.create_audit_partitions(date, integer)') IS NOT NULL THEN
        PERFORM claimguard.create_audit_partitions((now() AT TIME ZONE 'UTC')::date, 3);
    END IF;
END
$$;
