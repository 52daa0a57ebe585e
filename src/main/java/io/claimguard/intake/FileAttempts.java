package io.claimguard.intake;

import io.claimguard.support.Backoff;
import java.time.Instant;

/**
 * What the file drop remembers of one inbox file between the times it is taken: how often it failed, when it may be
 * taken again, why it failed last, and which audit row's result it already forwarded to the output queue and wrote to
 * the outbox, so that a retry sends neither again. Kept in memory while the file is in the inbox (a restart starts
 * afresh). Each file is taken by one exchange at a time; the poll reads it meanwhile.
 */
final class FileAttempts {

    private int failures;
    private Instant due = Instant.EPOCH;
    private String lastFailure;
    private Long forwarded;
    private Long inOutbox;

    /** Whether the file may be taken now. */
    synchronized boolean dueBy(Instant now) {
        return !now.isBefore(due);
    }

    /** Not to be taken before then (a file not settled yet, or one whose failure did not count). */
    synchronized void notBefore(Instant instant) {
        due = instant;
    }

    /**
     * Counts a failure: the file waits as the back-off says; when this was its last attempt it is due at once, to be
     * set aside (and should that fail too, it waits again). Returns the failures so far.
     */
    synchronized int failed(String failure, Instant now, Backoff backoff, int maxAttempts) {
        failures++;
        if (failures <= maxAttempts) {
            // the failure that made it exhausted is what its dead letter names, not a failure to set it aside
            lastFailure = failure;
        }
        due = failures == maxAttempts ? now : now.plus(backoff.after(failures));
        return failures;
    }

    synchronized int failures() {
        return failures;
    }

    synchronized String lastFailure() {
        return lastFailure;
    }

    /** The result of this audit row is on the output queue. */
    synchronized void forwarded(long auditId) {
        forwarded = auditId;
    }

    /** The audit row whose result an earlier attempt forwarded; null when none did. */
    synchronized Long forwarded() {
        return forwarded;
    }

    /** The result of this audit row is in the outbox, with its signature. */
    synchronized void inOutbox(long auditId) {
        inOutbox = auditId;
    }

    /** Whether an earlier attempt wrote the result of this audit row to the outbox. */
    synchronized boolean wroteToOutbox(long auditId) {
        return inOutbox != null && inOutbox == auditId;
    }
}
