package io.claimguard.config;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Policy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes the plain-Java domain core available to the routes, configured from {@code claimguard.limits} and
 * {@code claimguard.policy}.
 */
@Configuration(proxyBeanMethods = false)
public class DomainConfiguration {

    @Bean
    EnvelopeReader envelopeReader(ClaimGuardProperties properties) {
        return new EnvelopeReader(properties.limits());
    }

    /** The judgement policy from {@code claimguard.policy}; an unknown code or verdict stops the start-up, named. */
    @Bean
    Policy judgementPolicy(ClaimGuardProperties properties) {
        ClaimGuardProperties.Judgement settings = properties.policy();
        return Policy.of(settings.name(), settings.version(), settings.ruleCaps(), settings.findingCaps());
    }
}
