-- The audit document is the envelope as received plus the effective result (contract, section 6).
COMMENT ON COLUMN claimguard.verification_audit.audit IS
    'The envelope as received, every field in its place, plus "effective_result": the forwarded result, audit_id included '
    '("claimguard_effective_result" when the envelope has a top-level field of that name). Values PostgreSQL cannot hold '
    'as they are (U+0000, lone surrogates, numbers beyond numeric) are spelled out; input_sha256 hashes the exact bytes.';
