package io.claimguard.support;

import java.time.Duration;

/**
 * How long an input that failed waits before it is tried again: {@code first} after its first failure, doubling with
 * each further one, never more than {@code max}.
 */
public record Backoff(Duration first, Duration max) {

    public Backoff {
        if (first == null || max == null || first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("a back-off needs a positive first delay and a maximum at least as long,"
                    + " got " + first + " and " + max);
        }
    }

    /** The wait after the given number of failures in a row (at least one). */
    public Duration after(int failures) {
        Duration delay = first;
        for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(max) < 0 ? delay : max;
    }
}
