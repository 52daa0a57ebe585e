package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

    private final DurationConverter converter = new DurationConverter();

    @Test
    void shortFormsAndIso8601() {
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("15s")).isEqualTo(Duration.ofSeconds(15));
        assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(converter.convert("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void anythingElseIsAUsageError() {
        assertThatThrownBy(() -> converter.convert("soon")).isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("'soon' is not a duration");
    }
}
