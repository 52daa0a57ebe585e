package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class EmbeddedBrokerOnlyInEmbeddedModeTest {

    @Test
    @DisplayName("spring.artemis.embedded.enabled follows spring.artemis.mode unless an operator sets it")
    void nativeModeDisablesTheEmbeddedBroker() {
        assertThat(enabledAfter(Map.of("spring.artemis.mode", "native"))).isEqualTo("false");
        assertThat(enabledAfter(Map.of("spring.artemis.mode", " Native "))).isEqualTo("false");
        assertThat(enabledAfter(Map.of("spring.artemis.mode", "embedded"))).isEqualTo("true");
        assertThat(enabledAfter(Map.of())).as("Boot's own default mode here is embedded").isEqualTo("true");
        assertThat(enabledAfter(Map.of("spring.artemis.mode", "native", "spring.artemis.embedded.enabled", "true")))
                .as("an operator's explicit setting wins").isEqualTo("true");
    }

    private static String enabledAfter(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        new EmbeddedBrokerOnlyInEmbeddedMode().postProcessEnvironment(environment, new SpringApplication());
        return environment.getProperty("spring.artemis.embedded.enabled");
    }
}
