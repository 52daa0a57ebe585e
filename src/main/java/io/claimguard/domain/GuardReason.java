package io.claimguard.domain;

/**
 * One reason the verdict was capped (or would have been: also a reason that changed nothing is recorded): a guard rule
 * that fired, or a finding that the policy turns into a cap.
 *
 * @param code the guard rule's code ({@code gatekeeper.fail}) or the finding's ({@code evidence.unknown_invocation})
 * @param cap the verdict it caps the result at under the policy that judged it
 * @param detail a sentence saying why
 */
public record GuardReason(String code, Verdict cap, String detail) {

    /** A guard rule that fired, with the contract's cap (a policy may make it stricter: {@link Policy#judge}). */
    public static GuardReason of(GuardRule rule, String detail) {
        return new GuardReason(rule.code(), rule.cap(), detail);
    }

    GuardReason cappedAt(Verdict stricterCap) {
        return new GuardReason(code, stricterCap, detail);
    }
}
