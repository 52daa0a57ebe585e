package io.claimguard.explorer.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {

    @Test
    @DisplayName("Scenario: A flood of names and addresses keeps the throttle's memory bounded")
    void memoryIsBounded() {
        LoginThrottleProperties settings = new LoginThrottleProperties(5, 20, 50, Duration.ofHours(1),
                Duration.ofSeconds(30), Duration.ofMinutes(10), 1_000);
        LoginThrottle throttle = new LoginThrottle(settings, new SimpleMeterRegistry(), Clock.systemUTC());

        // 50,000 random names, each of a kilobyte, from 10,000 addresses
        String padding = "x".repeat(1_000);
        for (int i = 0; i < 50_000; i++) {
            String address = "10." + (i % 10_000 / 100) + "." + (i % 100) + ".1";
            try {
                throttle.end(throttle.begin(LoginThrottle.Method.FORM, UUID.randomUUID() + padding, address), false);
            } catch (LoginThrottledException throttled) {
                // the flood's own addresses get throttled; the rest goes on
            }
        }
        assertThat(throttle.tracked()).as("at most max-tracked of each kind").isLessThanOrEqualTo(3 * 1_000);

        // names are kept by their first 128 characters, in any case
        assertThat(LoginThrottle.keys("A".repeat(1_000), "198.51.100.7").get(LoginThrottle.Kind.NAME))
                .isEqualTo("a".repeat(LoginThrottle.NAME_KEY_LENGTH));
        // an IPv6 client counts by its /64, an IPv4-mapped one as IPv4
        assertThat(LoginThrottle.addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo("2001:db8:1:2::/64");
        assertThat(LoginThrottle.addressKey("2001:db8:1:2:0:0:0:1")).isEqualTo("2001:db8:1:2::/64");
        assertThat(LoginThrottle.addressKey("::ffff:192.0.2.9")).isEqualTo("192.0.2.9");
        assertThat(LoginThrottle.addressKey("fe80:0:0:0:1:2:3:4%eth0")).isEqualTo("fe80:0:0:0::/64");
        // a name that logs nothing it should not: control and direction characters shown as ?, at most 64 characters
        assertThat(LoginThrottle.printable("bob\nFAKE LOG LINE\u202e")).isEqualTo("bob?FAKE LOG LINE?");
        assertThat(LoginThrottle.printable("y".repeat(100))).isEqualTo("y".repeat(64) + "...");

        // and after the flood the throttle still counts: the fifth failure of a name from an address throttles it
        for (int i = 0; i < 5; i++) {
            throttle.end(throttle.begin(LoginThrottle.Method.BASIC, i % 2 == 0 ? "Alice" : "alice", "198.51.100.7"), false);
        }
        assertThatThrownBy(() -> throttle.begin(LoginThrottle.Method.BASIC, "alice", "198.51.100.7"))
                .isInstanceOf(LoginThrottledException.class);
    }
}
