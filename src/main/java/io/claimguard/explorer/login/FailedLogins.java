package io.claimguard.explorer.login;

import java.time.Duration;
import java.util.Arrays;

/**
 * The recent failed logins of one key (a name from an address, an address, or a name) and whether they throttle it:
 * immutable plain Java, every time passed in as epoch milliseconds, so that the rules are tested without a clock or a
 * server.
 *
 * <p>A key is throttled once {@link Limit#maxFailures} of its logins failed within {@link Limit#window}: its attempts
 * are refused, unchecked, until the wait is over. The first wait is {@link Limit#delay}; each failure after it while
 * the window still holds {@code maxFailures} failures throttles again with the wait doubled, up to
 * {@link Limit#maxDelay}; once the window holds no failure and no wait runs, the doubling starts again from
 * {@code delay}. Attempts being checked count as well: at most as many are checked at once as failures are left before
 * the throttle (one at a time once none is left), so that guesses sent in parallel cannot slip past it.
 *
 * @param failures when the recent failures were, oldest first, at most {@code maxFailures} of them
 * @param throttles the throttles since the window was last empty, for the doubling
 * @param throttledUntil when the current wait ends; 0 when there is none
 * @param checking attempts of this key whose password is being checked now
 */
record FailedLogins(long[] failures, int throttles, long throttledUntil, int checking) {

    /** A key nobody failed with. */
    static final FailedLogins NONE = new FailedLogins(new long[0], 0, 0, 0);

    /** What an attempt waits when as many attempts of its key are being checked as may be: about one check's time. */
    static final long CHECKING_WAIT_MILLIS = 1_000;

    /**
     * How many failures throttle a key, within how long, and for how long.
     *
     * @param maxFailures failures within the window that throttle the key
     * @param window how long a failure counts
     * @param delay the first wait
     * @param maxDelay the longest wait, however often the wait doubled
     */
    record Limit(int maxFailures, Duration window, Duration delay, Duration maxDelay) {

        /** The wait of the key's {@code throttles}-th throttle since its window was last empty. */
        long waitMillis(int throttles) {
            long wait = delay.toMillis();
            for (int doubled = 1; doubled < throttles && wait < maxDelay.toMillis(); doubled++) {
                wait *= 2;
            }
            return Math.min(wait, maxDelay.toMillis());
        }
    }

    /** The key as it is at {@code now}: failures older than the window forgotten, and the doubling once none is left. */
    FailedLogins at(long now, Limit limit) {
        long since = now - limit.window().toMillis();
        int first = 0;
        while (first < failures.length && failures[first] <= since) {
            first++;
        }
        long[] recent = first == 0 ? failures : Arrays.copyOfRange(failures, first, failures.length);
        if (recent.length == 0 && now >= throttledUntil) {
            return new FailedLogins(recent, 0, 0, checking);
        }
        return new FailedLogins(recent, throttles, throttledUntil, checking);
    }

    /** How long an attempt of this key must wait at {@code now} before it is checked: 0 when it may be checked now. */
    long waitMillis(long now, Limit limit) {
        FailedLogins current = at(now, limit);
        if (now < current.throttledUntil) {
            return current.throttledUntil - now;
        }
        int mayBeChecked = Math.max(1, limit.maxFailures() - current.failures.length);
        return current.checking >= mayBeChecked ? CHECKING_WAIT_MILLIS : 0;
    }

    /** One more attempt of this key is being checked. */
    FailedLogins checkingOne(long now, Limit limit) {
        FailedLogins current = at(now, limit);
        return new FailedLogins(current.failures, current.throttles, current.throttledUntil, current.checking + 1);
    }

    /** An attempt that was being checked failed at {@code now}: it counts, and may throttle the key. */
    FailedLogins failed(long now, Limit limit) {
        FailedLogins current = at(now, limit);
        long[] more = Arrays.copyOf(current.failures, current.failures.length + 1);
        more[more.length - 1] = now;
        if (more.length > limit.maxFailures()) {
            more = Arrays.copyOfRange(more, more.length - limit.maxFailures(), more.length);
        }
        int stillChecking = Math.max(0, current.checking - 1);
        if (more.length < limit.maxFailures()) {
            return new FailedLogins(more, current.throttles, current.throttledUntil, stillChecking);
        }
        int throttled = current.throttles + 1;
        return new FailedLogins(more, throttled, now + limit.waitMillis(throttled), stillChecking);
    }

    /**
     * An attempt that was being checked logged in: with {@code forgets} (the key names the operator who proved the
     * password) its failures are forgotten; otherwise (an address, which others share) they keep counting.
     */
    FailedLogins succeeded(long now, Limit limit, boolean forgets) {
        FailedLogins current = at(now, limit);
        int stillChecking = Math.max(0, current.checking - 1);
        return forgets ? new FailedLogins(new long[0], 0, 0, stillChecking)
                : new FailedLogins(current.failures, current.throttles, current.throttledUntil, stillChecking);
    }

    /** Whether this key has nothing left to remember at {@code now}, and can be dropped. */
    boolean forgotten(long now, Limit limit) {
        FailedLogins current = at(now, limit);
        return current.checking == 0 && current.failures.length == 0 && current.throttles == 0;
    }

    /** How long from {@code now} this key must be remembered: until its last failure leaves the window and its wait ends. */
    long rememberMillis(long now, Limit limit) {
        long lastFailureCounts = failures.length == 0 ? 0 : failures[failures.length - 1] + limit.window().toMillis();
        long until = Math.max(lastFailureCounts, throttledUntil);
        if (checking > 0) {
            // an attempt is being checked: keep its count until it ends (a check takes far less than a window)
            until = Math.max(until, now + limit.window().toMillis());
        }
        return Math.max(0, until - now);
    }
}
