package io.claimguard.config;

import io.claimguard.domain.EnvelopeReader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Makes the plain-Java domain core available to the routes, configured from {@code claimguard.limits}. */
@Configuration(proxyBeanMethods = false)
public class DomainConfiguration {

    @Bean
    EnvelopeReader envelopeReader(ClaimGuardProperties properties) {
        return new EnvelopeReader(properties.limits());
    }
}
