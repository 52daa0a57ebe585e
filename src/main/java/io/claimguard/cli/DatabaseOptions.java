package io.claimguard.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import picocli.CommandLine.Option;

/** How a tool reaches the audit database; the defaults are the service's own (environment variables included). */
public final class DatabaseOptions {

    @Option(names = "--db-url", paramLabel = "JDBC-URL",
            defaultValue = "${env:SPRING_DATASOURCE_URL:-jdbc:postgresql://localhost:5432/postgres}",
            description = "audit database (default: $SPRING_DATASOURCE_URL or ${DEFAULT-VALUE})")
    String url;

    @Option(names = "--db-user", paramLabel = "USER", defaultValue = "${env:SPRING_DATASOURCE_USERNAME:-postgres}",
            description = "login (default: $SPRING_DATASOURCE_USERNAME or ${DEFAULT-VALUE}); reading schema claimguard is enough")
    String user;

    @Option(names = "--db-password", paramLabel = "PASSWORD", defaultValue = "${env:SPRING_DATASOURCE_PASSWORD:-postgres}",
            description = "password (default: $SPRING_DATASOURCE_PASSWORD or postgres)")
    String password;

    /** A connection, or a {@link ToolFailure} that names the database and the login. */
    public Connection connect() {
        try {
            return DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            throw new ToolFailure("cannot reach the audit database at " + url + " as " + user, e);
        }
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }
}
