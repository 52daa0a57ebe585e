package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;

class HashPasswordCommandTest {

    @Test
    @DisplayName("Scenario: hash-password makes a hash the login accepts")
    void hashAccepted() {
        ClaimGuardCliTest.Run run = withStdin("correct horse battery staple\n", "hash-password");

        assertThat(run.exitCode()).as(run.err()).isZero();
        String hash = run.out().strip();
        assertThat(hash).startsWith("{bcrypt}$2a$10$").doesNotContain("correct horse");
        assertThat(PasswordEncoderFactories.createDelegatingPasswordEncoder().matches("correct horse battery staple", hash))
                .isTrue();

        ClaimGuardCliTest.Run empty = withStdin("", "hash-password");
        assertThat(empty.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(empty.err()).contains("the password is empty");
        assertThat(ClaimGuardCliTest.Run.of("--help").out()).contains("hash-password");
    }

    private static ClaimGuardCliTest.Run withStdin(String input, String... args) {
        InputStream before = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return ClaimGuardCliTest.Run.of(args);
        } finally {
            System.setIn(before);
        }
    }
}
