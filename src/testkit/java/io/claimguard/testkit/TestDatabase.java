package io.claimguard.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The PostgreSQL the integration tests run against: a database of its own on the local server (created for
 * this run, dropped at its end), or a Testcontainers PostgreSQL where a Docker engine is present.
 */
public final class TestDatabase {

    private static final String LOCAL_HOST = System.getProperty("claimguard.test.pg.host", "127.0.0.1");
    private static final int LOCAL_PORT = Integer.getInteger("claimguard.test.pg.port", 5432);
    private static final String LOCAL_USER = System.getProperty("claimguard.test.pg.user", "postgres");
    private static final String LOCAL_PASSWORD = System.getProperty("claimguard.test.pg.password", "postgres");

    private static TestDatabase instance;

    private final String host;
    private final int port;
    private final String database;
    private final String username;
    private final String password;

    private TestDatabase(String host, int port, String database, String username, String password) {
        this.host = host;
        this.port = port;
        this.database = database;
        this.username = username;
        this.password = password;
    }

    public static synchronized TestDatabase get() {
        if (instance == null) {
            instance = dockerAvailable() ? startContainer() : createLocalDatabase();
        }
        return instance;
    }

    /**
     * Another empty database on the same server, apart from the one {@link #get()} shares with the service
     * tests: for tests whose assertions need exactly the rows they inserted. It is gone at the end of the run.
     */
    public static synchronized TestDatabase createSeparate() {
        if (!dockerAvailable()) {
            return createLocalDatabase();
        }
        // in the container: created beside get()'s database, and removed with the container
        TestDatabase server = get();
        String name = newDatabaseName();
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name + " in the container", e);
        }
        return new TestDatabase(server.host, server.port, name, server.username, server.password);
    }

    public String jdbcUrl() {
        return jdbcUrl(host, port);
    }

    /** The URL of this database reached through another address, e.g. a {@link TcpProxy}. */
    public String jdbcUrl(String viaHost, int viaPort) {
        return "jdbc:postgresql://" + viaHost + ":" + viaPort + "/" + database;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String databaseName() {
        return database;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), username, password);
    }

    /** A new connection per request, e.g. for Flyway. */
    public DataSource dataSource() {
        return new DriverManagerDataSource(jdbcUrl(), username, password);
    }

    /**
     * Drops a database of {@link #createSeparate()} now, closing whatever connections still use it, rather than at
     * the end of the run: for the throughput harness, whose phases each fill a database of their own. The
     * end-of-run drop then finds nothing to do.
     */
    public void drop() {
        String adminUrl = jdbcUrl(host, port).replaceFirst("/[^/]*$", "/postgres");
        try (Connection admin = DriverManager.getConnection(adminUrl, username, password);
                Statement statement = admin.createStatement()) {
            // an identifier of our own making (newDatabaseName), never input: DROP DATABASE takes no parameter
            statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop test database " + database, e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    @SuppressWarnings("resource")
    private static TestDatabase startContainer() {
        PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        return new TestDatabase(container.getHost(), container.getFirstMappedPort(), container.getDatabaseName(),
                container.getUsername(), container.getPassword());
    }

    // A name of letters, digits and underscores only: it is an identifier, and CREATE DATABASE takes no parameter.
    private static String newDatabaseName() {
        return "claimguard_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static TestDatabase createLocalDatabase() {
        String name = newDatabaseName();
        String adminUrl = "jdbc:postgresql://" + LOCAL_HOST + ":" + LOCAL_PORT + "/postgres";
        try (Connection admin = DriverManager.getConnection(adminUrl, LOCAL_USER, LOCAL_PASSWORD);
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database on " + adminUrl
                    + ": is PostgreSQL running on " + LOCAL_HOST + ":" + LOCAL_PORT + "?", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection admin = DriverManager.getConnection(adminUrl, LOCAL_USER, LOCAL_PASSWORD);
                    Statement statement = admin.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (SQLException e) {
                System.err.println("could not drop test database " + name + ": " + e.getMessage());
            }
        }));
        return new TestDatabase(LOCAL_HOST, LOCAL_PORT, name, LOCAL_USER, LOCAL_PASSWORD);
    }

    /**
     * Makes the audit table refuse rows whose request_id is {@code LIKE} the pattern, with CHECK constraint
     * {@code test_refuses_request_id} (SQLSTATE 23514): a stand-in for any value PostgreSQL refuses as data (a DBA's
     * constraint, a trigger), now that ClaimGuard stores every value an envelope can hold. Once the schema exists;
     * adding it again changes nothing. The pattern is the test's own constant: DDL takes no bind parameter.
     */
    public static void refuseRequestIdsLike(Connection sql, String likePattern) throws SQLException {
        if (!likePattern.matches("[A-Za-z0-9._:%-]+")) {
            throw new IllegalArgumentException("not a request_id LIKE pattern: " + likePattern);
        }
        try (Statement statement = sql.createStatement()) {
            statement.execute("""
                    DO $$ BEGIN
                        ALTER TABLE claimguard.verification_audit
                            ADD CONSTRAINT test_refuses_request_id CHECK (request_id NOT LIKE '%s');
                    EXCEPTION WHEN duplicate_object THEN NULL;
                    END $$""".formatted(likePattern));
        }
    }
}
