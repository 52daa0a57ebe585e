package io.claimguard.pipeline;

import io.claimguard.domain.RejectionReason;

/**
 * Why an input is set aside: a stable code and a text for people.
 *
 * @param reason the code stored in {@code dead_letter.reason_code}
 * @param detail the text stored in {@code dead_letter.reason}
 */
public record DeadLetter(RejectionReason reason, String detail) {

    /** The code and the text in one line, as the dead-letter queue's reason property carries them. */
    public String describe() {
        return reason.code() + ": " + detail;
    }
}
