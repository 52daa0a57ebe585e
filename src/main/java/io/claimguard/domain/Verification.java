package io.claimguard.domain;

import java.util.List;

/**
 * Everything ClaimGuard concluded about one accepted envelope: its legacy projection, its guarded verdict and what
 * checking the verifier's evidence and consistency found.
 */
public record Verification(Envelope envelope, Projection projection, GuardDecision guard, List<Finding> findings) {

    public Verification {
        findings = List.copyOf(findings);
    }

    /** Projects, guards and checks one envelope. A pure function. */
    public static Verification of(Envelope envelope) {
        Projection projection = LegacyProjection.project(envelope.verifierOutput());
        GuardDecision guard = VerdictGuard.decide(envelope, projection);
        return new Verification(envelope, projection, guard, Findings.of(envelope, projection, guard));
    }

    public String requestId() {
        return envelope.requestId();
    }
}
