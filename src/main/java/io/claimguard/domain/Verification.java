package io.claimguard.domain;

import java.util.List;

/**
 * Everything ClaimGuard concluded about one accepted envelope: its legacy projection, its guarded verdict, what
 * checking the verifier's evidence and consistency found, and the policy that judged it (recorded in its audit row).
 */
public record Verification(Envelope envelope, Projection projection, GuardDecision guard, List<Finding> findings,
        Policy policy) {

    public Verification {
        findings = List.copyOf(findings);
    }

    /** A verification judged under the contract's policy. */
    public Verification(Envelope envelope, Projection projection, GuardDecision guard, List<Finding> findings) {
        this(envelope, projection, guard, findings, Policy.CONTRACT);
    }

    /** Projects, guards and checks one envelope under the contract's policy. A pure function. */
    public static Verification of(Envelope envelope) {
        return of(envelope, Policy.CONTRACT);
    }

    /**
     * Projects, guards and checks one envelope, and judges it under the policy: the guard's rules at the policy's
     * caps, and the findings the policy turns into caps. A pure function.
     */
    public static Verification of(Envelope envelope, Policy policy) {
        Projection projection = LegacyProjection.project(envelope.verifierOutput());
        GuardDecision guard = VerdictGuard.decide(envelope, projection);
        List<Finding> findings = Findings.of(envelope, projection, guard);
        return new Verification(envelope, projection, policy.judge(guard, findings), findings, policy);
    }

    public String requestId() {
        return envelope.requestId();
    }
}
