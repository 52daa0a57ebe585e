package io.claimguard.config;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts the embedded Artemis broker only when {@code spring.artemis.mode} is {@code embedded}. Spring Boot starts it
 * whenever {@code spring.artemis.embedded.enabled} is true, its default, whatever the mode: with an external broker
 * ({@code native}) it would still listen where producers are told to connect, take their messages and never hand them
 * to ClaimGuard, and a second instance in the same working directory would wait forever for the first one's journal
 * lock. An operator who sets {@code spring.artemis.embedded.enabled} keeps the last word.
 */
public class EmbeddedBrokerOnlyInEmbeddedMode implements EnvironmentPostProcessor, Ordered {

    static final String ENABLED = "spring.artemis.embedded.enabled";
    static final String MODE = "spring.artemis.mode";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.containsProperty(ENABLED)) {
            return;
        }
        boolean embedded = "embedded".equalsIgnoreCase(environment.getProperty(MODE, "embedded").strip());
        environment.getPropertySources().addLast(
                new MapPropertySource("claimguard-embedded-broker-follows-mode", Map.of(ENABLED, embedded)));
    }

    /** After the application's own configuration (application.yml, environment variables) is loaded. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
