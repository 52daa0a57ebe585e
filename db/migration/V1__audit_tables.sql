-- ClaimGuard audit tables. Schema claimguard is created by Flyway (spring.flyway.schemas).

CREATE TABLE claimguard.verification_audit (
    id                  bigserial   PRIMARY KEY,
    request_id          text        NOT NULL,
    source              text        NOT NULL,
    source_ref          text        NOT NULL,
    received_at         timestamptz NOT NULL,
    model_verdict       text        CHECK (model_verdict IN ('PASS', 'LOW_CONFID', 'REJECT')),
    effective_verdict   text        NOT NULL CHECK (effective_verdict IN ('PASS', 'LOW_CONFID', 'REJECT')),
    downgraded          boolean     NOT NULL,
    guard_reasons       text[]      NOT NULL,
    projection_mode     text        NOT NULL
                        CHECK (projection_mode IN ('claim_checks', 'claim_checks_replaced', 'legacy', 'none')),
    groundedness_score  double precision,
    critical_fact_count integer,
    audit               jsonb       NOT NULL,
    -- SHA-256 of the input's exact bytes: a byte-identical redelivery is a no-op
    input_sha256        bytea       NOT NULL,
    audited_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT verification_audit_input_sha256_key UNIQUE (input_sha256)
);

COMMENT ON TABLE claimguard.verification_audit IS 'One row per audited verifier result (an accepted envelope).';
COMMENT ON COLUMN claimguard.verification_audit.id IS 'The audit_id of the forwarded effective result.';
COMMENT ON COLUMN claimguard.verification_audit.source_ref IS 'File name (file drop) or JMS message id (jms).';
COMMENT ON COLUMN claimguard.verification_audit.model_verdict IS 'The model''s verdict in upper case; null when it was absent or invalid.';
COMMENT ON COLUMN claimguard.verification_audit.guard_reasons IS 'Codes of every guard rule that fired, also those that changed nothing.';
COMMENT ON COLUMN claimguard.verification_audit.audit IS '{"envelope": the envelope as received, "effective_result": the forwarded result}';

CREATE INDEX verification_audit_request_id_idx ON claimguard.verification_audit (request_id);
CREATE INDEX verification_audit_received_at_idx ON claimguard.verification_audit (received_at);
CREATE INDEX verification_audit_effective_verdict_idx ON claimguard.verification_audit (effective_verdict, received_at);
CREATE INDEX verification_audit_guard_reasons_idx ON claimguard.verification_audit USING gin (guard_reasons);
CREATE INDEX verification_audit_audit_idx ON claimguard.verification_audit USING gin (audit jsonb_path_ops);

CREATE TABLE claimguard.claim_check (
    audit_id            bigint      NOT NULL REFERENCES claimguard.verification_audit (id),
    ordinal             integer     NOT NULL,
    claim_id            text,
    claim_text          text,
    claim_type          text,
    verification        text,
    legacy_verification text        NOT NULL
                        CHECK (legacy_verification IN ('direct_evidence', 'indirect_support', 'no_evidence', 'contradicted')),
    is_critical         boolean     NOT NULL,
    detail              text,
    evidence_refs       jsonb       NOT NULL,
    PRIMARY KEY (audit_id, ordinal)
);

COMMENT ON TABLE claimguard.claim_check IS 'One row per claim check of an audited input, in the order received.';
COMMENT ON COLUMN claimguard.claim_check.verification IS 'The V2 label as received (may be unknown); legacy_verification is its projection.';

CREATE INDEX claim_check_verification_idx ON claimguard.claim_check (verification);
CREATE INDEX claim_check_claim_type_idx ON claimguard.claim_check (claim_type);

CREATE TABLE claimguard.dead_letter (
    id             bigserial   PRIMARY KEY,
    source         text        NOT NULL,
    source_ref     text        NOT NULL,
    received_at    timestamptz NOT NULL,
    reason_code    text        NOT NULL,
    reason         text        NOT NULL,
    payload        bytea       NOT NULL,
    payload_sha256 bytea       NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    -- the same delivery retried after a crash records its rejection once
    CONSTRAINT dead_letter_delivery_key UNIQUE (source, source_ref, payload_sha256)
);

COMMENT ON TABLE claimguard.dead_letter IS 'One row per rejected input, with its exact bytes and a reason a person can read.';
COMMENT ON COLUMN claimguard.dead_letter.reason_code IS 'Stable code, e.g. not_json, request_id.invalid, processing_failed.';

CREATE INDEX dead_letter_received_at_idx ON claimguard.dead_letter (received_at);
CREATE INDEX dead_letter_reason_code_idx ON claimguard.dead_letter (reason_code);
