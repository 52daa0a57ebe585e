package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

class RuntimeRoleConfigurationTest {

    @Test
    @DisplayName("Scenario: A blank runtime role leaves the connections with the login's own privileges")
    void blankRoleSetsNoRole() {
        // as configured: an empty value (what the binder makes of "runtime-role:" in YAML) or spaces
        for (String blank : new String[] {"", "  "}) {
            assertThat(initSqlFor(blank, new HikariDataSource())).as("role %s", blank).isNull();
        }
        assertThat(initSqlFor("claimguard_writer", new HikariDataSource())).isEqualTo("SET ROLE \"claimguard_writer\"");
    }

    @Test
    @DisplayName("The role is written as a quoted identifier, so a name cannot carry SQL")
    void roleIsAQuotedIdentifier() {
        assertThat(initSqlFor("x\"; DROP TABLE t; --", new HikariDataSource()))
                .isEqualTo("SET ROLE \"x\"\"; DROP TABLE t; --\"");
    }

    @Test
    @DisplayName("A role and an init SQL of the operator's own are refused together rather than one dropped")
    void roleAndOwnInitSqlAreRefused() {
        HikariDataSource pool = new HikariDataSource();
        pool.setConnectionInitSql("SET application_name = 'x'");
        assertThatThrownBy(() -> initSqlFor("claimguard_writer", pool))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("connection-init-sql");
    }

    private static String initSqlFor(String role, HikariDataSource pool) {
        ClaimGuardProperties properties = TestProperties.claimGuard("claimguard.database.runtime-role=" + role);
        BeanPostProcessor processor = RuntimeRoleConfiguration.runtimeRoleOnEveryConnection(
                new StaticListableBeanFactory(Map.of("properties", properties)).getBeanProvider(ClaimGuardProperties.class));
        processor.postProcessAfterInitialization(pool, "dataSource");
        return pool.getConnectionInitSql();
    }
}
