package io.claimguard.explorer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.HeadersConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;

/**
 * Who may see what on the management port, ClaimGuard's one HTTP port.
 *
 * <p><b>Actuator</b> ({@code /actuator/**}, HTTP Basic, no session): health (status only), liveness and readiness are
 * open for probes, {@code prometheus} too unless {@code claimguard.management.prometheus-public=false}; everything
 * else (health details and components, {@code camelroutes}, {@code metrics}, {@code claimguard}, {@code info}) needs
 * an operator's login. <b>Everything else</b> is the audit explorer: a form login, then read-only pages; when the
 * explorer is off every such path is refused. Every answer carries a strict Content-Security-Policy (no script at
 * all, styles only from the jar) and may not be framed.
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

    @Bean
    @Order(1)
    SecurityFilterChain actuator(HttpSecurity http, ManagementProperties management) throws Exception {
        http.securityMatcher("/actuator/**")
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/liveness",
                            "/actuator/health/readiness").permitAll();
                    if (management.prometheusPublic()) {
                        requests.requestMatchers(HttpMethod.GET, "/actuator/prometheus").permitAll();
                    }
                    requests.anyRequest().authenticated();
                })
                .httpBasic(Customizer.withDefaults())
                // no session and no cookie: a request carries its credentials, so there is nothing to forge
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .headers(WebSecurity::strictHeaders);
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain explorer(HttpSecurity http, ExplorerProperties explorer) throws Exception {
        if (explorer.enabled()) {
            http.authorizeHttpRequests(requests -> requests
                            .requestMatchers(HttpMethod.GET, LOGIN_PAGE, STYLESHEET).permitAll()
                            .requestMatchers("/error").permitAll()
                            .requestMatchers(HttpMethod.GET, "/explorer", "/explorer/**").authenticated()
                            .anyRequest().denyAll())
                    .formLogin(login -> login.loginPage(LOGIN_PAGE).defaultSuccessUrl("/explorer", false).permitAll())
                    .logout(logout -> logout.logoutSuccessUrl(LOGIN_PAGE + "?logout"));
        } else {
            // the error page renders the status of a refused actuator request (401, not 403 for the error dispatch)
            http.authorizeHttpRequests(requests -> requests.requestMatchers("/error").permitAll().anyRequest().denyAll());
        }
        http.headers(WebSecurity::strictHeaders);
        return http.build();
    }

    private static void strictHeaders(HeadersConfigurer<HttpSecurity> headers) {
        headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                .frameOptions(HeadersConfigurer.FrameOptionsConfig::deny)
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.NO_REFERRER));
    }
}
