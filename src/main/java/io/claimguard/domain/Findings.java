package io.claimguard.domain;

import java.util.List;

/**
 * Checks the verifier's evidence against the tool traces it was given, and its output for consistency: a pure function
 * of the envelope, its projection and the guard's reading of the model verdict, like {@link VerdictGuard}.
 */
public final class Findings {

    private Findings() {
    }

    /** Every finding for one envelope, evidence findings first (in claim order), then consistency findings. */
    public static List<Finding> of(Envelope envelope, Projection projection, GuardDecision guard) {
        return List.of();
    }
}
