package io.claimguard.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
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

    /** The service's {@code spring.datasource.*} settings for this database, as a service process takes them. */
    public Map<String, String> serviceProperties() {
        return Map.of("spring.datasource.url", jdbcUrl(), "spring.datasource.username", username(),
                "spring.datasource.password", password());
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), username, password);
    }

    /** A new connection per request, e.g. for Flyway. */
    public DataSource dataSource() {
        return new DriverManagerDataSource(jdbcUrl(), username, password);
    }

    /** Runs the service's migrations on this database, as the service does at start; returns this database. */
    public TestDatabase migrated() {
        Flyway.configure().dataSource(dataSource()).schemas("claimguard").locations("classpath:db/migration").load().migrate();
        return this;
    }

    /** A connection pool whose connections act as the role, as the service's pool acts as claimguard_writer. */
    public HikariDataSource poolActingAs(String role, int size) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(dataSource());
        // a role name of the test's own making, never input: SET ROLE takes no parameter
        config.setConnectionInitSql("SET ROLE " + role);
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
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
        if (!dockerMayBeReachable(System.getenv(), System.getProperties(), Path.of(System.getProperty("user.home")),
                System.getProperty("os.name"))) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether any of the places Testcontainers looks for a Docker engine is set or present: only then is it asked,
     * since where it finds none it logs an ERROR block on every run. The places are those of its client provider
     * strategies: {@code DOCKER_HOST} and the {@code docker.host}, {@code tc.host} and {@code docker.client.strategy}
     * settings (environment, system properties, {@code ~/.testcontainers.properties}), the sockets
     * {@code /var/run/docker.sock}, {@code ~/.docker/run/docker.sock}, {@code ~/.docker/desktop/docker.sock},
     * {@code $XDG_RUNTIME_DIR/docker.sock} and {@code /run/user/<uid>/docker.sock}, and Windows' named pipe, which
     * cannot be looked at beforehand (so there it is always asked).
     */
    static boolean dockerMayBeReachable(Map<String, String> environment, Properties systemProperties, Path home, String osName) {
        if (osName != null && osName.startsWith("Windows")) {
            return true;
        }
        if (environment.containsKey("DOCKER_HOST") || environment.containsKey("TESTCONTAINERS_DOCKER_CLIENT_STRATEGY")) {
            return true;
        }
        Properties userProperties = new Properties();
        Path userFile = home.resolve(".testcontainers.properties");
        if (Files.isReadable(userFile)) {
            try (var in = Files.newInputStream(userFile)) {
                userProperties.load(in);
            } catch (IOException e) {
                return true;
            }
        }
        for (String setting : List.of("docker.host", "tc.host", "docker.client.strategy")) {
            if (systemProperties.containsKey(setting) || userProperties.containsKey(setting)) {
                return true;
            }
        }
        List<Path> sockets = new ArrayList<>(List.of(Path.of("/var/run/docker.sock"), home.resolve(".docker/run/docker.sock"),
                home.resolve(".docker/desktop/docker.sock")));
        String runtimeDirectory = environment.get("XDG_RUNTIME_DIR");
        if (runtimeDirectory != null) {
            sockets.add(Path.of(runtimeDirectory, "docker.sock"));
        }
        try (var userRuntimeDirectories = Files.list(Path.of("/run/user"))) {
            userRuntimeDirectories.map(directory -> directory.resolve("docker.sock")).forEach(sockets::add);
        } catch (IOException e) {
            // no /run/user: no rootless engine there
        }
        return sockets.stream().anyMatch(Files::exists);
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
