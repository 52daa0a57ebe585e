package io.claimguard.pipeline;

/** What became of one input. */
public enum Outcome {
    /** Audited now and forwarded. */
    AUDITED,
    /** A byte-identical input was audited before: no new row, the earlier result forwarded again. */
    DUPLICATE,
    /** Not an acceptable envelope: recorded in dead_letter, never audited nor forwarded. */
    REJECTED,
    /** Accepted, but processing failed in a way retries could not cure: recorded in dead_letter. */
    FAILED;

    public boolean forwarded() {
        return this == AUDITED || this == DUPLICATE;
    }

    public boolean setAside() {
        return this == REJECTED || this == FAILED;
    }
}
