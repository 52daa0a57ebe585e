package io.claimguard.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void doublesFromTheFirstDelayUpToTheMaximum() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(backoff.after(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.after(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.after(6)).isEqualTo(Duration.ofSeconds(32));
        assertThat(backoff.after(7)).isEqualTo(Duration.ofSeconds(60));
        assertThat(backoff.after(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(60));
        assertThat(new Backoff(Duration.ofMillis(100), Duration.ofMillis(100)).after(5)).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void needsAPositiveFirstDelayAndAMaximumAtLeastAsLong() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
