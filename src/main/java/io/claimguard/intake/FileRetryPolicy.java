package io.claimguard.intake;

import io.claimguard.support.Backoff;
import io.claimguard.support.Failures;
import io.claimguard.support.LogValue;
import java.time.Instant;
import org.apache.activemq.artemis.api.core.ActiveMQConnectionTimedOutException;
import org.apache.activemq.artemis.api.core.ActiveMQDisconnectedException;
import org.apache.activemq.artemis.api.core.ActiveMQNotConnectedException;
import org.apache.activemq.artemis.api.core.ActiveMQUnBlockedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file drop's policy for a file whose exchange failed (after its audit commit, or anywhere the verify route's own
 * retries do not reach: reading it, writing its result to the outbox, moving it): the file stays in the inbox and is
 * not taken again before its back-off has passed, {@code claimguard.file.redelivery-delay} doubling up to
 * {@code max-redelivery-delay}, the broker's rule for a JMS message. After {@code max-delivery-attempts} failures it is
 * taken once more only to be set aside in {@code .error/} as {@code processing_failed}. A failure because the database
 * or the broker is unreachable does not count: the file waits, as every input does during an outage. Each failure is one log line;
 * one beyond the last attempt (setting it aside failed too) only the first time.
 */
final class FileRetryPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(FileRetryPolicy.class);

    private final int maxAttempts;
    private final Backoff backoff;

    FileRetryPolicy(int maxAttempts, Backoff backoff) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("claimguard.file.max-delivery-attempts must be at least 1, got " + maxAttempts);
        }
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
    }

    /** Whether the file failed as often as it may: it is set aside instead of processed. */
    boolean exhausted(FileAttempts attempts) {
        return attempts.failures() >= maxAttempts;
    }

    void failed(InboxFile file, Throwable failure, Instant now) {
        String name = LogValue.of(file.text());
        String cause = Failures.describe(failure);
        String shownCause = LogValue.text(cause);
        if (Failures.isOutage(failure) || isBrokerOutage(failure)) {
            file.attempts().notBefore(now.plus(backoff.first()));
            LOG.warn("file input {} waits for the {}: {}", name, Failures.isOutage(failure) ? "database" : "broker", shownCause);
            return;
        }
        int failures = file.attempts().failed(cause, now, backoff, maxAttempts);
        if (failures < maxAttempts) {
            LOG.warn("file input {} failed (attempt {} of {}), taken again in {} ms: {}", name, failures, maxAttempts,
                    backoff.after(failures).toMillis(), shownCause);
        } else if (failures == maxAttempts) {
            LOG.warn("file input {} failed (attempt {} of {}), set aside in .error/ as processing_failed: {}", name,
                    failures, maxAttempts, shownCause);
        } else if (failures == maxAttempts + 1) {
            LOG.error("file input {} could not be set aside either; tried again every {} ms (further failures at DEBUG): {}",
                    name, backoff.max().toMillis(), shownCause);
        } else {
            LOG.debug("file input {} still cannot be set aside ({} failures): {}", name, failures, shownCause);
        }
    }

    /**
     * The broker cannot be reached, the connection to it is gone, or it stopped answering: Artemis' own words for those
     * (also inside a JMS or Spring JMS exception). A failure the broker gives for a reason of its own (a refused login or
     * permission, a full address) is not one: it would fail again however long the file waited.
     */
    static boolean isBrokerOutage(Throwable failure) {
        for (Throwable cause : Failures.causes(failure)) {
            if (cause instanceof ActiveMQNotConnectedException || cause instanceof ActiveMQConnectionTimedOutException
                    || cause instanceof ActiveMQDisconnectedException || cause instanceof ActiveMQUnBlockedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * How an exhausted file's dead_letter row says it: {@code processing failed after N attempts: <the last failure>}.
     */
    String reason(FileAttempts attempts) {
        int made = Math.min(attempts.failures(), maxAttempts);
        return "processing failed after " + made + (made == 1 ? " attempt: " : " attempts: ") + attempts.lastFailure();
    }
}
