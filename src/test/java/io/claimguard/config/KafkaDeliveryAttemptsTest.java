package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class KafkaDeliveryAttemptsTest {

    @Test
    @DisplayName("Scenario: A Kafka record may be delivered at least twice before it is dead-lettered")
    void fewerThanTwoDeliveryAttemptsAreRefused() {
        assertThatThrownBy(() -> bind(Map.of("claimguard.kafka.enabled", "true",
                "claimguard.kafka.max-delivery-attempts", "1")))
                .isInstanceOf(BindException.class).rootCause()
                .hasMessageStartingWith("claimguard.kafka.max-delivery-attempts must be at least 2, got 1");
        assertThat(bind(Map.of("claimguard.kafka.enabled", "true", "claimguard.kafka.max-delivery-attempts", "2"))
                .kafka().maxDeliveryAttempts()).isEqualTo(2);
        // not checked while the Kafka entry is off
        assertThat(bind(Map.of("claimguard.kafka.max-delivery-attempts", "0")).kafka().enabled()).isFalse();
    }

    private static ClaimGuardProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(new LinkedHashMap<>(settings)))
                .bind("claimguard", ClaimGuardProperties.class).get();
    }
}
