package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.testkit.TestOperator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.userdetails.UserDetails;

class WebSecurityTest {

    private final WebSecurity security = new WebSecurity();

    @Test
    @DisplayName("Scenario: Operators are configured with password hashes only")
    void hashesOnly() {
        Set<String> names = new HashSet<>();
        UserDetails alice = WebSecurity.operator(new ExplorerProperties.User("alice", TestOperator.PASSWORD_HASH), names);
        assertThat(alice.getUsername()).isEqualTo("alice");
        assertThat(security.passwordEncoder().matches(TestOperator.PASSWORD, alice.getPassword())).isTrue();
        assertThat(security.passwordEncoder().matches("wrong", alice.getPassword())).isFalse();

        for (String notAHash : new String[] {"secret", "{noop}secret", "", "{bcrypt}"}) {
            assertThatThrownBy(() -> WebSecurity.operator(new ExplorerProperties.User("bob", notAHash), new HashSet<>()))
                    .as(notAHash).isInstanceOf(IllegalStateException.class).hasMessageContaining("hash-password");
        }
        assertThatThrownBy(() -> WebSecurity.operator(new ExplorerProperties.User("alice", TestOperator.PASSWORD_HASH), names))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> WebSecurity.operator(new ExplorerProperties.User(" ", TestOperator.PASSWORD_HASH), names))
                .hasMessageContaining("no name");
        // switched on with nobody to log in is a mistake, said at start
        assertThatThrownBy(() -> security.operators(new ExplorerProperties(true, List.of(), null, 0)))
                .hasMessageContaining("nobody could log in");
        assertThat(security.operators(new ExplorerProperties(false, List.of(), null, 0))).isNotNull();
    }

    @Test
    void defaults() {
        ExplorerProperties defaults = new ExplorerProperties(false, null, null, 0);
        assertThat(defaults.databaseRole()).isEqualTo("claimguard_reader");
        assertThat(defaults.pageSize()).isEqualTo(50);
        assertThat(defaults.users()).isEmpty();
    }
}
