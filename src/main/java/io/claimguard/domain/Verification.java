package io.claimguard.domain;

/**
 * Everything ClaimGuard concluded about one accepted envelope: its legacy projection and its guarded verdict.
 */
public record Verification(Envelope envelope, Projection projection, GuardDecision guard) {

    /** Projects and guards one envelope. A pure function. */
    public static Verification of(Envelope envelope) {
        Projection projection = LegacyProjection.project(envelope.verifierOutput());
        return new Verification(envelope, projection, VerdictGuard.decide(envelope, projection));
    }

    public String requestId() {
        return envelope.requestId();
    }
}
