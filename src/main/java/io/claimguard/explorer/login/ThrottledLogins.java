package io.claimguard.explorer.login;

import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * Spring Security's password check (the {@code checker}, a {@code DaoAuthenticationProvider}) behind the
 * {@link LoginThrottle}: an attempt whose name or address is throttled is refused with a
 * {@link LoginThrottledException} before its password is looked at, even the right one; every other attempt is checked
 * and its outcome counted. The address is the one Spring Security recorded for the request
 * ({@link WebAuthenticationDetails}: the socket's, or the client's as a trusted proxy forwarded it when
 * {@code server.forward-headers-strategy} is set).
 */
public final class ThrottledLogins implements AuthenticationProvider {

    private final AuthenticationProvider checker;
    private final LoginThrottle throttle;
    private final LoginThrottle.Method method;

    public ThrottledLogins(AuthenticationProvider checker, LoginThrottle throttle, LoginThrottle.Method method) {
        this.checker = checker;
        this.throttle = throttle;
        this.method = method;
    }

    @Override
    public Authentication authenticate(Authentication login) throws AuthenticationException {
        LoginThrottle.Attempt attempt = throttle.begin(method, login.getName(), address(login));
        Authentication result = null;
        try {
            result = checker.authenticate(login);
            return result;
        } finally {
            throttle.end(attempt, result != null && result.isAuthenticated());
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return checker.supports(authentication);
    }

    private static String address(Authentication login) {
        return login.getDetails() instanceof WebAuthenticationDetails web ? web.getRemoteAddress() : null;
    }
}
