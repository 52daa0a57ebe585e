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

    @Test
    @DisplayName("Scenario: hash-password refuses a password shorter than 12 characters")
    void tooShort() {
        ClaimGuardCliTest.Run short11 = withStdin("elevenchars\n", "hash-password");
        assertThat(short11.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(short11.out()).isEmpty();
        assertThat(short11.err().lines().findFirst()).hasValue(
                "claimguard hash-password: the password is too short: 11 characters, at least 12");
        assertThat(short11.err()).doesNotContain("elevenchars").doesNotContain("Exception");
        assertThat(withStdin("x\n", "hash-password").err()).contains("too short: 1 characters, at least 12");
        // characters, not bytes: twelve accented letters are enough
        assertThat(withStdin("\u00e9".repeat(12) + "\n", "hash-password").exitCode()).isZero();
        // bcrypt reads 72 bytes: a longer password would be cut, so it is refused too
        ClaimGuardCliTest.Run tooLong = withStdin("y".repeat(73) + "\n", "hash-password");
        assertThat(tooLong.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(tooLong.err()).contains("the password is too long: more than 72 bytes");
        assertThat(withStdin("y".repeat(72) + "\n", "hash-password").exitCode()).isZero();
        assertThat(ClaimGuardCliTest.Run.of("hash-password", "--help").out()).contains("at least 12 characters");
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
