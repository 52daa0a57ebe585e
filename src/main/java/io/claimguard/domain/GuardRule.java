package io.claimguard.domain;

/** The verdict guard's rules: each has a reason code and the verdict it caps the result at. */
public enum GuardRule {
    GATEKEEPER_INVOCATION_REF("gatekeeper.invocation_ref", Verdict.REJECT),
    GATEKEEPER_FAIL("gatekeeper.fail", Verdict.LOW_CONFID),
    GATEKEEPER_MISSING("gatekeeper.missing", Verdict.LOW_CONFID),
    PARSE_STATUS_NOT_OK("parse_status.not_ok", Verdict.LOW_CONFID),
    VERDICT_INVALID("verdict.invalid", Verdict.LOW_CONFID),
    CLAIM_CHECKS_UNKNOWN_VERIFICATION("claim_checks.unknown_verification", Verdict.LOW_CONFID);

    private final String code;
    private final Verdict cap;

    GuardRule(String code, Verdict cap) {
        this.code = code;
        this.cap = cap;
    }

    public String code() {
        return code;
    }

    public Verdict cap() {
        return cap;
    }
}
