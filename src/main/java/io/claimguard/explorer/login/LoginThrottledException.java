package io.claimguard.explorer.login;

import java.time.Duration;
import org.springframework.security.core.AuthenticationException;

/** A login refused without its password being checked: its name, its address or both failed too often lately. */
public final class LoginThrottledException extends AuthenticationException {

    private final transient Duration retryAfter;

    LoginThrottledException(Duration retryAfter) {
        super("too many failed logins: try again in " + seconds(retryAfter) + " s");
        this.retryAfter = retryAfter;
    }

    /** Whole seconds until an attempt may be checked again (at least 1), as {@code Retry-After} says it. */
    public long retryAfterSeconds() {
        return seconds(retryAfter);
    }

    private static long seconds(Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }
}
