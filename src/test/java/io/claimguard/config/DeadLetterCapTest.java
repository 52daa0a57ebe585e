package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class DeadLetterCapTest {

    @Test
    @DisplayName("Scenario: A dead-letter cap below the input limit is refused at start")
    void capBelowTheLimitIsRefused() {
        assertThatThrownBy(() -> bind(Map.of("claimguard.limits.max-bytes", "1048576", "claimguard.limits.max-depth", "64",
                "claimguard.dead-letter.max-stored-bytes", "512KB")))
                .isInstanceOf(BindException.class).rootCause()
                .hasMessage("claimguard.dead-letter.max-stored-bytes (524288 bytes) must be at least claimguard.limits.max-bytes"
                        + " (1048576 bytes): every input the service could accept is kept whole in dead_letter, so that it"
                        + " can be re-driven from there");
        assertThatThrownBy(() -> bind(Map.of("claimguard.dead-letter.max-stored-bytes", "2GB")))
                .isInstanceOf(BindException.class).rootCause()
                .hasMessageStartingWith("claimguard.dead-letter.max-stored-bytes must be from 1 byte to 1GB");

        ClaimGuardProperties equal = bind(Map.of("claimguard.limits.max-bytes", "1048576", "claimguard.limits.max-depth",
                "64", "claimguard.dead-letter.max-stored-bytes", "1MB"));
        assertThat(equal.deadLetter().cap()).isEqualTo(1_048_576);
        ClaimGuardProperties defaults = bind(Map.of("claimguard.limits.max-bytes", "1048576", "claimguard.limits.max-depth",
                "64", "claimguard.dead-letter.max-stored-bytes", "8MB"));
        assertThat(defaults.deadLetter().cap()).isEqualTo(8 * 1024 * 1024);
    }

    private static ClaimGuardProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(new LinkedHashMap<>(settings)))
                .bind("claimguard", ClaimGuardProperties.class).get();
    }
}
