package io.claimguard.domain;

import java.util.Optional;

/** The six V2 claim verification labels and the legacy label each one projects to. */
public enum ClaimVerification {
    DIRECT_OBSERVATION("direct_observation", LegacyVerification.DIRECT_EVIDENCE),
    REASONABLE_INFERENCE("reasonable_inference", LegacyVerification.INDIRECT_SUPPORT),
    OVERSTATED("overstated", LegacyVerification.INDIRECT_SUPPORT),
    UNSUPPORTED("unsupported", LegacyVerification.NO_EVIDENCE),
    EXTERNAL_UNKNOWN("external_unknown", LegacyVerification.NO_EVIDENCE),
    CONTRADICTED("contradicted", LegacyVerification.CONTRADICTED);

    private final String label;
    private final LegacyVerification legacy;

    ClaimVerification(String label, LegacyVerification legacy) {
        this.label = label;
        this.legacy = legacy;
    }

    public String label() {
        return label;
    }

    public LegacyVerification legacy() {
        return legacy;
    }

    /** Exact, case-sensitive lookup: {@code DIRECT_OBSERVATION} is not a known label. */
    public static Optional<ClaimVerification> fromLabel(String label) {
        if (label == null) {
            return Optional.empty();
        }
        for (ClaimVerification verification : values()) {
            if (verification.label.equals(label)) {
                return Optional.of(verification);
            }
        }
        return Optional.empty();
    }
}
