package io.claimguard.config;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.config.LoginPrivileges.Privilege;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Chooses the {@link RuntimeLogin} once at start, after the migrations ({@link DependsOnDatabaseInitialization}) and
 * before any runtime connection is opened (the routes, the sealer and the checkpoint writer take connections only once
 * the context has started): it looks at what the given login ({@code spring.datasource.*}) could do to the audit
 * tables on a connection of its own ({@link LoginPrivileges}), then uses it as it is, makes the runtime login with it
 * ({@link RuntimeLoginMaker}) or, for a trial, keeps it with a warning; sets the service's pool to the chosen login;
 * and checks a connection of that pool the same way. A login the service will not run on stops the start with one line
 * ({@link RuntimeLoginRefused}).
 */
@Configuration(proxyBeanMethods = false)
class RuntimeLoginConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeLoginConfiguration.class);

    private static final String REFUSED = "ClaimGuard refuses to start: ";

    private static final String WHAT_TO_DO = "give spring.datasource.username a login with claimguard_writer's privileges "
            + "only (migrations run as spring.flyway.user), or set claimguard.database.allow-privileged-login=true for a "
            + "trial";

    @Bean
    @DependsOnDatabaseInitialization
    RuntimeLogin runtimeLogin(DataSource dataSource, ClaimGuardProperties properties) {
        if (!(dataSource instanceof HikariDataSource pool)) {
            throw new IllegalStateException("the service's DataSource is a " + dataSource.getClass().getName()
                    + ", not the Hikari pool whose login ClaimGuard chooses at start");
        }
        if (pool.isRunning()) {
            throw new IllegalStateException("the service's connection pool was opened before its runtime login was chosen");
        }
        ClaimGuardProperties.Database settings = properties.database();
        RuntimeLogin login = choose(pool, settings);
        pool.setUsername(login.username());
        pool.setPassword(login.password());
        checkRuntimeConnection(pool, login);
        return login;
    }

    /** The login the service's connections will use, from what the given login could do; see {@link RuntimeLogin}. */
    private static RuntimeLogin choose(HikariDataSource pool, ClaimGuardProperties.Database settings) {
        String given = pool.getUsername();
        try (Connection connection = connectAsGiven(pool)) {
            List<Privilege> privileges = LoginPrivileges.of(connection);
            if (privileges.isEmpty()) {
                return new RuntimeLogin(given, pool.getPassword(), RuntimeLogin.Kind.GIVEN, given);
            }
            String privileged = "the login " + given + " (spring.datasource.username) could change or remove audit rows ("
                    + LoginPrivileges.summary(privileges) + ")";
            if (settings.allowPrivilegedLogin()) {
                LOG.warn("ClaimGuard runs on a privileged login, for a trial only (claimguard.database.allow-privileged-login"
                        + "=true): {}, and so could whoever holds one of its connections", privileged);
                return new RuntimeLogin(given, pool.getPassword(), RuntimeLogin.Kind.TRIAL, given);
            }
            String name = settings.runtimeLogin() == null ? "" : settings.runtimeLogin().strip();
            if (name.isEmpty()) {
                throw new RuntimeLoginRefused(REFUSED + privileged + " and claimguard.database.runtime-login is blank, so "
                        + "ClaimGuard makes no runtime login for it; name one there, or " + WHAT_TO_DO);
            }
            if (!RuntimeLoginMaker.isPlainName(name) || name.equals(given)) {
                throw new RuntimeLoginRefused(REFUSED + "claimguard.database.runtime-login " + name + " must be a role "
                        + "name of lower-case letters, digits and underscores, other than spring.datasource.username");
            }
            try {
                String password = RuntimeLoginMaker.make(connection, name, pool.getPassword());
                return new RuntimeLogin(name, password, RuntimeLogin.Kind.MADE, given);
            } catch (SQLException e) {
                throw new RuntimeLoginRefused(REFUSED + privileged + " and cannot make the runtime login " + name
                        + " (claimguard.database.runtime-login): " + reason(e) + "; " + WHAT_TO_DO);
            }
        } catch (SQLException e) {
            throw new RuntimeLoginRefused(REFUSED + "cannot look at the login " + given + " (spring.datasource.username) on "
                    + pool.getJdbcUrl() + ": " + reason(e));
        }
    }

    /**
     * The check every start ends with, on a connection of the service's own pool (after its {@code SET ROLE}): its
     * login must not be able to change audit rows, by itself or through a role it may SET ROLE to, unless this is a
     * trial, which has said so already.
     */
    private static void checkRuntimeConnection(HikariDataSource pool, RuntimeLogin login) {
        List<Privilege> privileges;
        try (Connection connection = pool.getConnection()) {
            privileges = LoginPrivileges.of(connection);
        } catch (SQLException e) {
            throw new RuntimeLoginRefused(REFUSED + "its runtime connections as " + login.username() + " fail: "
                    + reason(e) + " (the runtime login must be a member of claimguard.database.runtime-role)");
        }
        if (!privileges.isEmpty() && login.kind() != RuntimeLogin.Kind.TRIAL) {
            throw new RuntimeLoginRefused(REFUSED + "its runtime login " + login.username() + " could change or remove "
                    + "audit rows (" + LoginPrivileges.summary(privileges) + "); take that from it, or " + WHAT_TO_DO);
        }
    }

    /** PostgreSQL's message without pgjdbc's "ERROR: " in front. */
    private static String reason(SQLException e) {
        String message = String.valueOf(e.getMessage());
        return message.startsWith("ERROR: ") ? message.substring("ERROR: ".length()) : message;
    }

    /** A connection of its own as the given login, with the pool's URL and driver settings. */
    private static Connection connectAsGiven(HikariDataSource pool) throws SQLException {
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        if (pool.getUsername() != null) {
            properties.setProperty("user", pool.getUsername());
        }
        if (pool.getPassword() != null) {
            properties.setProperty("password", pool.getPassword());
        }
        return DriverManager.getConnection(pool.getJdbcUrl(), properties);
    }
}
