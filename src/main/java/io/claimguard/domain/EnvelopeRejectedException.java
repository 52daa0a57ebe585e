package io.claimguard.domain;

/** An input that is not a usable envelope. The message says, for a person, what is wrong with it. */
public final class EnvelopeRejectedException extends Exception {

    private final RejectionReason reason;

    public EnvelopeRejectedException(RejectionReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public RejectionReason reason() {
        return reason;
    }

    /** The reason as stored in {@code claimguard.dead_letter.reason}: code, then the explanation. */
    public String describe() {
        return reason.code() + ": " + getMessage();
    }
}
