package io.claimguard.support;

import org.slf4j.Logger;

/**
 * Logs a background task that fails round after round the way an operator wants to read it: the first failure of a
 * streak as one WARN line without a stack trace, the further ones at DEBUG, and one INFO line when the task works
 * again. An outage of an hour does not write 3,600 warnings. Used by one thread only.
 */
public final class FailureStreak {

    private final Logger log;
    private final String task;
    private final String retry;
    private int failedRounds;

    /**
     * @param task what the task does, as the log lines name it ("audit sealing")
     * @param retry when it is tried again ("every 1000 ms")
     */
    public FailureStreak(Logger log, String task, String retry) {
        this.log = log;
        this.task = task;
        this.retry = retry;
    }

    /** True while the last round failed. */
    public boolean failing() {
        return failedRounds > 0;
    }

    public void failed(Exception failure) {
        failedRounds++;
        if (failedRounds == 1) {
            log.warn("{} failed, trying again {} (further failures are logged at DEBUG): {}", task, retry,
                    Failures.describe(failure));
        } else {
            log.debug("{} failed again ({} rounds): {}", task, failedRounds, Failures.describe(failure));
        }
    }

    /** @param outcome what the working round did, for the INFO line ("sealed 12 row(s)") */
    public void succeeded(String outcome) {
        if (failedRounds > 0) {
            log.info("{} works again after {} failed round(s); {}", task, failedRounds, outcome);
            failedRounds = 0;
        }
    }
}
