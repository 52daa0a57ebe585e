package io.claimguard.explorer.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FailedLoginsTest {

    private static final FailedLogins.Limit LIMIT = new FailedLogins.Limit(5, Duration.ofHours(1),
            Duration.ofSeconds(30), Duration.ofMinutes(10));
    private static final long MINUTE = 60_000;

    @Test
    @DisplayName("Scenario: The wait doubles with each failure past the limit, up to its cap, and starts again after a quiet window")
    void waitDoublesUpToTheCap() {
        long now = 1_000_000;
        assertThat(failedTimes(4, now).waitMillis(now, LIMIT)).as("four failures").isZero();
        FailedLogins key = failedTimes(5, now);
        assertThat(key.waitMillis(now, LIMIT)).as("the fifth failure throttles").isEqualTo(30_000);
        assertThat(key.waitMillis(now + 29_999, LIMIT)).isEqualTo(1);

        // each failure after a wait, while the window holds five, doubles the next wait: 1m, 2m, 4m, 8m, then 10m
        long[] waits = {MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 10 * MINUTE, 10 * MINUTE};
        long at = now;
        for (long expected : waits) {
            at += key.waitMillis(at, LIMIT);
            assertThat(key.waitMillis(at, LIMIT)).isZero();
            key = fail(key, at);
            assertThat(key.waitMillis(at, LIMIT)).isEqualTo(expected);
        }

        // a whole window without a failure: forgotten, and the next five failures start again at 30 s
        at += key.waitMillis(at, LIMIT) + 60 * MINUTE + 1;
        assertThat(key.forgotten(at, LIMIT)).isTrue();
        for (int i = 0; i < 5; i++) {
            key = fail(key, at);
        }
        assertThat(key.waitMillis(at, LIMIT)).as("throttled anew, from the first wait").isEqualTo(30_000);

        // failures spread wider than the window never throttle: only five within it do
        FailedLogins slow = FailedLogins.NONE;
        for (int i = 0; i < 20; i++) {
            slow = fail(slow, now + i * 16 * MINUTE);
            assertThat(slow.waitMillis(now + i * 16 * MINUTE, LIMIT)).as("failure %d, 16 minutes apart", i + 1).isZero();
        }

        // an operator who logs in forgets the failures of the name; an address keeps them
        FailedLogins four = failedTimes(4, now);
        assertThat(fail(four.checkingOne(now, LIMIT).succeeded(now, LIMIT, true), now).waitMillis(now, LIMIT)).isZero();
        assertThat(fail(four.checkingOne(now, LIMIT).succeeded(now, LIMIT, false), now).waitMillis(now, LIMIT))
                .isEqualTo(30_000);
    }

    @Test
    @DisplayName("Scenario: Guesses sent at once are checked no faster than the limit allows")
    void parallelGuessesCount() {
        long now = 5_000_000;
        FailedLogins key = FailedLogins.NONE;
        // five may be checked at once while nothing failed; a sixth waits for them
        for (int i = 0; i < 5; i++) {
            assertThat(key.waitMillis(now, LIMIT)).isZero();
            key = key.checkingOne(now, LIMIT);
        }
        assertThat(key.waitMillis(now, LIMIT)).isEqualTo(FailedLogins.CHECKING_WAIT_MILLIS);
        // all five fail: the key is throttled, as if they had come one after the other
        for (int i = 0; i < 5; i++) {
            key = key.failed(now, LIMIT);
        }
        assertThat(key.waitMillis(now, LIMIT)).isEqualTo(30_000);
        // once the wait is over, one guess at a time
        long later = now + 30_000;
        assertThat(key.waitMillis(later, LIMIT)).isZero();
        key = key.checkingOne(later, LIMIT);
        assertThat(key.waitMillis(later, LIMIT)).isEqualTo(FailedLogins.CHECKING_WAIT_MILLIS);
        // with three failures, two may be checked at once
        FailedLogins three = failedTimes(3, now);
        three = three.checkingOne(now, LIMIT).checkingOne(now, LIMIT);
        assertThat(three.waitMillis(now, LIMIT)).isEqualTo(FailedLogins.CHECKING_WAIT_MILLIS);
        assertThat(three.checking()).isEqualTo(2);
        assertThat(three.failed(now, LIMIT).failed(now, LIMIT).waitMillis(now, LIMIT)).isEqualTo(30_000);
    }

    /** A key that failed {@code times} times at {@code at}. */
    private static FailedLogins failedTimes(int times, long at) {
        FailedLogins key = FailedLogins.NONE;
        for (int i = 0; i < times; i++) {
            key = fail(key, at);
        }
        return key;
    }

    private static FailedLogins fail(FailedLogins key, long at) {
        return key.checkingOne(at, LIMIT).failed(at, LIMIT);
    }
}
