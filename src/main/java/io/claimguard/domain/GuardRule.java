package io.claimguard.domain;

import java.util.Optional;

/** The verdict guard's rules: each has a reason code and the verdict the contract caps the result at. */
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

    /** The rule with this code, if there is one. */
    public static Optional<GuardRule> ofCode(String code) {
        for (GuardRule rule : values()) {
            if (rule.code.equals(code)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }
}
