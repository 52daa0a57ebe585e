package io.claimguard.explorer.login;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How failed logins on the management port ({@code claimguard.explorer.login-throttle.*}) throttle further attempts,
 * by the login form and by HTTP Basic alike. Three keys count failures, each with its own limit and the same window and
 * waits: a name from one address, an address (whatever names it tries), and a name (from whatever addresses).
 *
 * @param maxFailures failures of one name from one address within the window that throttle that name from that
 *     address (default 5)
 * @param maxFailuresPerAddress failures from one address, any names, that throttle every login from it (default 20)
 * @param maxFailuresPerName failures of one name from any addresses that throttle that name everywhere (default 50):
 *     one address alone fails with a name at most about 14 times an hour by the defaults (5, then one after each
 *     wait), so an attacker needs at least 4 addresses to lock an operator out, and several failing around the clock
 *     to keep it locked out
 * @param window how long a failure counts (default 1 hour)
 * @param delay the first wait of a throttled key (default 30 seconds)
 * @param maxDelay the longest wait: each failure after a throttle, while the window holds as many failures as the
 *     limit, doubles the wait up to this (default 10 minutes)
 * @param maxTracked keys remembered at most, of each kind (default 10,000): bounds the memory whatever a flood of
 *     names or addresses tries
 */
@ConfigurationProperties("claimguard.explorer.login-throttle")
public record LoginThrottleProperties(int maxFailures, int maxFailuresPerAddress, int maxFailuresPerName,
        Duration window, Duration delay, Duration maxDelay, int maxTracked) {

    public LoginThrottleProperties {
        maxFailures = maxFailures <= 0 ? 5 : maxFailures;
        maxFailuresPerAddress = maxFailuresPerAddress <= 0 ? 20 : maxFailuresPerAddress;
        maxFailuresPerName = maxFailuresPerName <= 0 ? 50 : maxFailuresPerName;
        window = positiveOr(window, Duration.ofHours(1));
        delay = positiveOr(delay, Duration.ofSeconds(30));
        maxDelay = positiveOr(maxDelay, Duration.ofMinutes(10));
        maxDelay = maxDelay.compareTo(delay) < 0 ? delay : maxDelay;
        maxTracked = maxTracked <= 0 ? 10_000 : maxTracked;
    }

    private static Duration positiveOr(Duration value, Duration otherwise) {
        return value == null || value.isNegative() || value.isZero() ? otherwise : value;
    }

    FailedLogins.Limit perNameFromAddress() {
        return new FailedLogins.Limit(maxFailures, window, delay, maxDelay);
    }

    FailedLogins.Limit perAddress() {
        return new FailedLogins.Limit(maxFailuresPerAddress, window, delay, maxDelay);
    }

    FailedLogins.Limit perName() {
        return new FailedLogins.Limit(maxFailuresPerName, window, delay, maxDelay);
    }
}
