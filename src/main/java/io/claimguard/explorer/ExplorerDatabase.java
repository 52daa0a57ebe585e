package io.claimguard.explorer;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.config.RuntimeLogin;
import java.time.Duration;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The explorer's own small pool, apart from the service's: it connects as the service's {@link RuntimeLogin} (never
 * as a privileged login the service was given, unless that is a trial), every connection takes
 * {@code claimguard.explorer.database-role} ({@code SET ROLE claimguard_reader}, which may only read schema claimguard)
 * and is read-only in every transaction, autocommit included ({@code readOnlyMode=always}). It is deliberately not a
 * {@code DataSource} bean, so that the service's pool, its writer role and its health check stay as they are.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
public class ExplorerDatabase implements DisposableBean {

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(30);

    private final HikariDataSource pool;
    private final JdbcTemplate sql;

    ExplorerDatabase(ExplorerProperties explorer, @Value("${spring.datasource.url}") String url, RuntimeLogin login) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("claimguard-explorer");
        config.setJdbcUrl(url);
        config.setUsername(login.username());
        config.setPassword(login.password());
        config.setMaximumPoolSize(2);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(5_000);
        // the service starts while the database is away; the pages say so until it is back
        config.setInitializationFailTimeout(-1);
        config.setReadOnly(true);
        config.addDataSourceProperty("readOnlyMode", "always");
        config.addDataSourceProperty("options", "-c statement_timeout=" + STATEMENT_TIMEOUT.toMillis());
        config.setConnectionInitSql(setRole(explorer.databaseRole()));
        this.pool = new HikariDataSource(config);
        this.sql = new JdbcTemplate(pool);
    }

    /** The explorer's connections, read-only and as the reader role; public for the tests that prove they are. */
    public JdbcTemplate sql() {
        return sql;
    }

    /** SET ROLE takes no bind parameter: the name is written as a quoted identifier, so it is only ever a name. */
    static String setRole(String role) {
        return "SET ROLE \"" + role.replace("\"", "\"\"") + "\"";
    }

    @Override
    public void destroy() {
        pool.close();
    }
}
