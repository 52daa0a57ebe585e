package io.claimguard.domain;

/** Where the effective {@code facts_checked} list came from. */
public enum ProjectionMode {
    /** Only {@code claim_checks} was emitted; the list is the projection. */
    CLAIM_CHECKS("claim_checks"),
    /** Both were emitted; the projection replaced the verifier's own list. */
    CLAIM_CHECKS_REPLACED("claim_checks_replaced"),
    /** Only the V1 {@code facts_checked} was emitted; it is passed on unchanged. */
    LEGACY("legacy"),
    /** Neither was emitted; the list is empty. */
    NONE("none");

    private final String label;

    ProjectionMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
