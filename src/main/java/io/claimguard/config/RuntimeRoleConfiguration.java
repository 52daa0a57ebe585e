package io.claimguard.config;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes every runtime connection act as {@code claimguard.database.runtime-role} (default {@code claimguard_writer},
 * which may add audit rows but not change or remove them): the pool runs {@code SET ROLE} on each new physical
 * connection before handing it out. Flyway is not affected: it migrates on a connection of its own, as the owner
 * ({@code spring.flyway.url}, {@code .user}, {@code .password}).
 */
@Configuration(proxyBeanMethods = false)
public class RuntimeRoleConfiguration {

    @Bean
    static BeanPostProcessor runtimeRoleOnEveryConnection(ObjectProvider<ClaimGuardProperties> properties) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool) {
                    String role = properties.getObject().database().runtimeRole();
                    if (role != null && !role.isBlank()) {
                        if (pool.getConnectionInitSql() != null) {
                            throw new IllegalStateException("spring.datasource.hikari.connection-init-sql is set and "
                                    + "claimguard.database.runtime-role would replace it: set the role blank, or drop the init SQL");
                        }
                        pool.setConnectionInitSql(setRole(role));
                    }
                }
                return bean;
            }
        };
    }

    /** SET ROLE takes no bind parameter: the name is written as a quoted identifier, so it is only ever a name. */
    static String setRole(String role) {
        return "SET ROLE \"" + role.replace("\"", "\"\"") + "\"";
    }
}
