package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OutboxNameTest {

    @Test
    @DisplayName("Scenario: An outbox name never starts with a dot nor holds a path separator")
    void anOutboxNameIsNeverHiddenNorAPath() {
        assertThat(OutboxName.of(".hidden-rid", 32)).isEqualTo("%2Ehidden-rid.32.json");
        assertThat(OutboxName.of("..", 31)).isEqualTo("%2E..31.json");
        assertThat(OutboxName.of(".", 7)).isEqualTo("%2E.7.json");
        assertThat(OutboxName.of("chat-2f91.req-0106", 42)).isEqualTo("chat-2f91.req-0106.42.json");
        assertThat(OutboxName.of("a:b_c.d-e..", 1)).isEqualTo("a:b_c.d-e...1.json");
        // characters a validated request id never holds
        assertThat(OutboxName.of("../etc/passwd", 3)).isEqualTo("%2E.%2Fetc%2Fpasswd.3.json");
        assertThat(OutboxName.of("a%2Eb \u00e9", 4)).isEqualTo("a%252Eb%20%C3%A9.4.json");

        for (String requestId : List.of(".x", "..x", "...", ".", "x", "x..", "../a/b", "a%b", "\u00e9t\u00e9", "a\nb")) {
            String name = OutboxName.of(requestId, 9);
            assertThat(name).as(requestId).doesNotStartWith(".").doesNotContain("/").endsWith(".9.json");
            String escaped = name.substring(0, name.length() - ".9.json".length());
            assertThat(URLDecoder.decode(escaped.replace("+", "%2B"), StandardCharsets.UTF_8)).as(requestId)
                    .isEqualTo(requestId);
        }
    }
}
