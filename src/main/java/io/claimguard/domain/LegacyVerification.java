package io.claimguard.domain;

/** The verification labels of the V1 {@code facts_checked} list that the chat front end still reads. */
public enum LegacyVerification {
    DIRECT_EVIDENCE("direct_evidence"),
    INDIRECT_SUPPORT("indirect_support"),
    NO_EVIDENCE("no_evidence"),
    CONTRADICTED("contradicted");

    private final String label;

    LegacyVerification(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
