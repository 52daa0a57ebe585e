package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.testkit.TestOperator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.userdetails.UserDetails;

class WebSecurityTest {

    private final WebSecurity security = new WebSecurity();

    @Test
    @DisplayName("Scenario: Operators are configured with password hashes only")
    void hashesOnly() {
        UserDetails alice = Operators.users(explorer(true, user("alice", TestOperator.PASSWORD_HASH))).get(0);
        assertThat(alice.getUsername()).isEqualTo("alice");
        assertThat(security.passwordEncoder().matches(TestOperator.PASSWORD, alice.getPassword())).isTrue();
        assertThat(security.passwordEncoder().matches("wrong", alice.getPassword())).isFalse();

        // a hash whose $ a shell took, and a cut one, are not whole bcrypt hashes
        String shellEaten = TestOperator.PASSWORD_HASH.replace("$2a$04$", "");
        String cut = TestOperator.PASSWORD_HASH.substring(0, 40);
        for (String notAHash : new String[] {"secret", "{noop}secret", "", "{bcrypt}", shellEaten, cut}) {
            assertThat(Operators.problem(explorer(true, user("bob", notAHash)))).as(notAHash)
                    .hasValueSatisfying(problem -> assertThat(problem)
                            .startsWith("claimguard.explorer.users[0] (bob)").contains("hash-password").doesNotContain("\n"));
        }
        assertThat(Operators.problem(explorer(false, user("alice", TestOperator.PASSWORD_HASH),
                user("Alice", TestOperator.PASSWORD_HASH)))).hasValue(
                        "claimguard.explorer.users names Alice twice (names are compared without case)");
        assertThat(Operators.problem(explorer(false, user("alice", TestOperator.PASSWORD_HASH), user(" ", "x"))))
                .hasValue("claimguard.explorer.users[1] has no name");
        // switched on with nobody to log in is a mistake, said at start; off, nobody is fine
        assertThat(Operators.problem(explorer(true))).hasValueSatisfying(problem -> assertThat(problem)
                .startsWith("claimguard.explorer.users names nobody").contains("nobody could log in", "hash-password"));
        assertThat(Operators.problem(explorer(false))).isEmpty();
        assertThatThrownBy(() -> security.operators(explorer(true))).isInstanceOf(InvalidOperatorsException.class)
                .hasMessageContaining("nobody could log in");
        assertThat(security.operators(explorer(false))).isNotNull();
    }

    @Test
    void defaults() {
        ExplorerProperties defaults = new ExplorerProperties(false, null, null, 0, 0);
        assertThat(defaults.databaseRole()).isEqualTo("claimguard_reader");
        assertThat(defaults.pageSize()).isEqualTo(50);
        assertThat(defaults.users()).isEmpty();
    }

    private static ExplorerProperties explorer(boolean enabled, ExplorerProperties.User... users) {
        return new ExplorerProperties(enabled, List.of(users), null, 0, 0);
    }

    private static ExplorerProperties.User user(String name, String password) {
        return new ExplorerProperties.User(name, password);
    }
}
