package io.claimguard.verify;

/** What became of one input. */
public enum Outcome {
    /** Audited now and forwarded. */
    AUDITED,
    /** A byte-identical input was audited before: no new row, the earlier result forwarded again. */
    DUPLICATE,
    /** Not an acceptable envelope: recorded in dead_letter, never audited nor forwarded. */
    REJECTED,
    /** Accepted, but processing kept failing for a reason other than an unreachable database: dead-lettered. */
    FAILED;

    public boolean forwarded() {
        return this == AUDITED || this == DUPLICATE;
    }
}
