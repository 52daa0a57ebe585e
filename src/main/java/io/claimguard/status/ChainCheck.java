package io.claimguard.status;

/** How much of the audit chain a status check recomputes. */
public enum ChainCheck {

    /** Every seal, as {@code claimguard verify-chain} does: its time grows with the chain (the command line's). */
    FULL("full", "full check"),
    /**
     * The newest seal only: constant time, for an endpoint that may be called often; it sees a change to the newest
     * row or the removal of the newest seal, not one further back.
     */
    HEAD_LINK("head_link", "head link only; verify-chain checks it all");

    private final String jsonName;
    private final String description;

    ChainCheck(String jsonName, String description) {
        this.jsonName = jsonName;
        this.description = description;
    }

    public String jsonName() {
        return jsonName;
    }

    String description() {
        return description;
    }
}
