package io.claimguard.explorer;

import io.claimguard.explorer.login.LoginThrottle;
import io.claimguard.explorer.login.LoginThrottledException;
import io.claimguard.explorer.login.LoginThrottleProperties;
import io.claimguard.explorer.login.ThrottledLogins;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointWebExtension;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.health.registry.ReactiveHealthContributorRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.HeadersConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.www.BasicAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Who may see what on the management port, ClaimGuard's one HTTP port.
 *
 * <p><b>Actuator</b> ({@code /actuator/**}, HTTP Basic, no session): health (status only), liveness and readiness are
 * open for probes, {@code prometheus} too unless {@code claimguard.management.prometheus-public=false}; everything
 * else (health details and components, {@code camelroutes}, {@code metrics}, {@code claimguard}, {@code info}) needs
 * an operator's login. It takes no write (405) unless {@code management.endpoint.camelroutes.read-only=false}.
 * <b>Everything else</b> is the audit explorer: a form login, then read-only pages; when the explorer is off every
 * such path is refused. Both logins go through the {@link LoginThrottle}: a throttled attempt is refused before its
 * password is checked, with 429 and {@code Retry-After} (HTTP Basic) or the login page saying how long to wait
 * (form). Every answer carries a strict Content-Security-Policy (no script at all, styles only from the jar) and may
 * not be framed.
 */
@Configuration(proxyBeanMethods = false)
public class WebSecurity {

    /** No script at all, styles only from the jar, no framing, forms only to this origin. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    static final String LOGIN_PAGE = "/login";
    static final String STYLESHEET = "/explorer/explorer.css";

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * The operators of {@code claimguard.explorer.users}; none by default, and then nobody can log in. Checked before
     * the context starts ({@link OperatorsCheck}); checked again here for a context made without that initializer.
     */
    @Bean
    UserDetailsService operators(ExplorerProperties explorer) {
        return new InMemoryUserDetailsManager(Operators.users(explorer));
    }

    /** The login throttle both chains share: failures by form and by HTTP Basic count together. */
    @Bean
    LoginThrottle loginThrottle(LoginThrottleProperties settings, MeterRegistry registry) {
        return new LoginThrottle(settings, registry, Clock.systemUTC());
    }

    /**
     * Boot's health answer, except that the group names (liveness, readiness) are shown only with the components: to
     * anyone without a login, {@code /actuator/health} is the status alone, {@code {"status":"UP"}}.
     */
    @Bean
    HealthEndpointWebExtension healthEndpointWebExtension(HealthContributorRegistry registry,
            ObjectProvider<ReactiveHealthContributorRegistry> reactiveRegistry, HealthEndpointGroups groups,
            HealthEndpointProperties properties) {
        return new StatusOnlyHealth(registry, reactiveRegistry.getIfAvailable(), groups,
                properties.getLogging().getSlowIndicatorThreshold());
    }

    @Bean
    @Order(1)
    SecurityFilterChain actuator(HttpSecurity http, ManagementProperties management, UserDetailsService operators,
            PasswordEncoder passwords, LoginThrottle throttle, Environment environment) throws Exception {
        http.securityMatcher("/actuator/**")
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/liveness",
                            "/actuator/health/readiness").permitAll();
                    if (management.prometheusPublic()) {
                        requests.requestMatchers(HttpMethod.GET, "/actuator/prometheus").permitAll();
                    }
                    requests.anyRequest().authenticated();
                })
                .authenticationManager(logins(operators, passwords, throttle, LoginThrottle.Method.BASIC))
                .httpBasic(basic -> basic.authenticationEntryPoint(basicEntryPoint()))
                // no session and no cookie: a request carries its credentials, so there is nothing to forge
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .headers(WebSecurity::strictHeaders);
        if (environment.getProperty("management.endpoint.camelroutes.read-only", Boolean.class, true)) {
            http.addFilterBefore(new ReadOnlyActuator(), BasicAuthenticationFilter.class);
        }
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain explorer(HttpSecurity http, ExplorerProperties explorer, UserDetailsService operators,
            PasswordEncoder passwords, LoginThrottle throttle) throws Exception {
        if (explorer.enabled()) {
            http.authorizeHttpRequests(requests -> requests
                            .requestMatchers(HttpMethod.GET, LOGIN_PAGE, STYLESHEET).permitAll()
                            .requestMatchers("/error").permitAll()
                            .requestMatchers(HttpMethod.GET, "/explorer", "/explorer/**").authenticated()
                            .anyRequest().denyAll())
                    .authenticationManager(logins(operators, passwords, throttle, LoginThrottle.Method.FORM))
                    .formLogin(login -> login.loginPage(LOGIN_PAGE).defaultSuccessUrl("/explorer", false)
                            .failureHandler(formFailure()).permitAll())
                    .logout(logout -> logout.logoutSuccessUrl(LOGIN_PAGE + "?logout"));
        } else {
            // the error page renders the status of a refused actuator request (401, not 403 for the error dispatch)
            http.authorizeHttpRequests(requests -> requests.requestMatchers("/error").permitAll().anyRequest().denyAll());
        }
        http.headers(WebSecurity::strictHeaders);
        return http.build();
    }

    /** The operators' password check behind the login throttle, for one way of logging in. */
    private static AuthenticationManager logins(UserDetailsService operators, PasswordEncoder passwords,
            LoginThrottle throttle, LoginThrottle.Method method) {
        DaoAuthenticationProvider checker = new DaoAuthenticationProvider(operators);
        checker.setPasswordEncoder(passwords);
        return new ProviderManager(new ThrottledLogins(checker, throttle, method));
    }

    /** A wrong password shows the login page with its error; a throttled attempt the page that says how long to wait. */
    private static AuthenticationFailureHandler formFailure() {
        SimpleUrlAuthenticationFailureHandler wrong = new SimpleUrlAuthenticationFailureHandler(LOGIN_PAGE + "?error");
        return (request, response, failure) -> {
            if (failure instanceof LoginThrottledException throttled) {
                response.sendRedirect(request.getContextPath() + LOGIN_PAGE + "?throttled=" + throttled.retryAfterSeconds());
            } else {
                wrong.onAuthenticationFailure(request, response, failure);
            }
        };
    }

    /** No or wrong credentials: 401 asking for HTTP Basic; a throttled attempt: 429 with {@code Retry-After}. */
    private static AuthenticationEntryPoint basicEntryPoint() {
        BasicAuthenticationEntryPoint basic = new BasicAuthenticationEntryPoint();
        basic.setRealmName("Realm");
        return (request, response, failure) -> {
            if (failure instanceof LoginThrottledException throttled) {
                response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(throttled.retryAfterSeconds()));
                response.sendError(HttpStatus.TOO_MANY_REQUESTS.value(), failure.getMessage());
            } else {
                basic.commence(request, response, failure);
            }
        };
    }

    /**
     * The actuator while it takes no write: a POST, PUT, PATCH or DELETE answers 405 with {@code Allow: GET, HEAD},
     * before any login is asked for or checked, and never reaches an endpoint (Camel's route operations would refuse
     * it with a 500 and an ERROR stack trace).
     */
    static final class ReadOnlyActuator extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (HttpMethod.GET.matches(request.getMethod()) || HttpMethod.HEAD.matches(request.getMethod())) {
                chain.doFilter(request, response);
                return;
            }
            response.setHeader(HttpHeaders.ALLOW, "GET, HEAD");
            response.sendError(HttpStatus.METHOD_NOT_ALLOWED.value(), "the actuator takes no write here");
        }
    }

    private static void strictHeaders(HeadersConfigurer<HttpSecurity> headers) {
        headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                .frameOptions(HeadersConfigurer.FrameOptionsConfig::deny)
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.NO_REFERRER));
    }
}
