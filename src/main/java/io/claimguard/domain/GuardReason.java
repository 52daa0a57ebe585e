package io.claimguard.domain;

/** One guard rule that fired, with a sentence saying why. */
public record GuardReason(GuardRule rule, String detail) {

    public String code() {
        return rule.code();
    }

    public Verdict cap() {
        return rule.cap();
    }
}
