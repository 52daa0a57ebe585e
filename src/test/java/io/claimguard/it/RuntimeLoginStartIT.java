package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The service as its own JVM (the jar), started on each kind of login: the two logins of the compose and Kubernetes
 * set-up, made by {@code deploy/k8s/claimguard-logins.sql} (run with psql, as they run it); a privileged login the
 * service may make no runtime login for; an owner that may not make one; and a privileged login allowed for a trial.
 * The logins' names carry this run's suffix (roles belong to the whole server) and are dropped at the end.
 */
class RuntimeLoginStartIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private static final String OWNER = "cg_owner_" + RUN;
    private static final String RUNTIME = "cg_runtime_" + RUN;
    // the server trusts 127.0.0.1, so these are never asked for here; a server that asks gets them
    private static final String OWNER_PASSWORD = "owner-" + RUN;
    private static final String RUNTIME_PASSWORD = "runtime-" + RUN;
    private static final String REFUSAL = "ClaimGuard refuses to start: ";

    /** Set up as compose and Kubernetes set it up: migrated by the owner, served as the runtime login. */
    private static TestDatabase twoLogins;

    @BeforeAll
    static void logins() throws Exception {
        twoLogins = TestDatabase.createSeparate();
        ProcessBuilder command = new ProcessBuilder("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", twoLogins.host(),
                "-p", Integer.toString(twoLogins.port()), "-U", twoLogins.username(), "-d", twoLogins.databaseName(),
                "-f", "deploy/k8s/claimguard-logins.sql").redirectErrorStream(true);
        command.environment().putAll(Map.of("PGPASSWORD", twoLogins.password(),
                "CLAIMGUARD_OWNER_LOGIN", OWNER, "CLAIMGUARD_OWNER_PASSWORD", OWNER_PASSWORD,
                "CLAIMGUARD_RUNTIME_LOGIN", RUNTIME, "CLAIMGUARD_RUNTIME_PASSWORD", RUNTIME_PASSWORD));
        Process psql = command.start();
        psql.getOutputStream().close();
        String output = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(psql.waitFor()).as(output).isZero();
    }

    @AfterAll
    static void dropLogins() throws SQLException {
        twoLogins.drop();
        try (Connection admin = DriverManager.getConnection(twoLogins.jdbcUrl().replaceFirst("/[^/]*$", "/postgres"),
                twoLogins.username(), twoLogins.password()); Statement sql = admin.createStatement()) {
            // names of the test's own making: DROP ROLE takes no bind parameter
            sql.execute("DROP ROLE IF EXISTS " + RUNTIME);
            sql.execute("DROP ROLE IF EXISTS " + OWNER);
        }
    }

    @Test
    @DisplayName("Scenario: A login that cannot change audit rows is used as it is, migrations running as the owner")
    void unprivilegedLoginIsUsedAsItIs() throws Exception {
        Path work = Files.createTempDirectory("claimguard-two-logins-");
        Map<String, String> settings = settings(work, twoLogins, RUNTIME, RUNTIME_PASSWORD);
        settings.put("spring.flyway.user", OWNER);
        settings.put("spring.flyway.password", OWNER_PASSWORD);
        try (ServiceProcess service = service(work, settings)) {
            service.start();
            service.awaitReady(PATIENCE);
            String requestId = "two-logins-" + RUN;
            drop(work.resolve("inbox"), requestId);
            JdbcTemplate sql = new JdbcTemplate(new DriverManagerDataSource(twoLogins.jdbcUrl(), twoLogins.username(),
                    twoLogins.password()));
            await().atMost(PATIENCE).until(() -> sql.queryForObject("""
                    SELECT count(*) FROM claimguard.verification_audit AS a
                    JOIN claimguard.audit_seal AS s ON s.audit_id = a.id WHERE a.request_id = ?""", Long.class, requestId) == 1);

            assertThat(Files.readString(service.currentLog())).contains("(schema claimguard) as " + RUNTIME
                    + ", acting as claimguard_writer; migrations as " + OWNER + ";");
            assertThat(sql.queryForList("""
                    SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()""",
                    String.class, twoLogins.databaseName())).containsExactly(RUNTIME);
            assertThat(sql.queryForList("SELECT DISTINCT installed_by FROM claimguard.flyway_schema_history",
                    String.class)).containsExactly(OWNER);
            assertThat(sql.queryForList("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'claimguard'",
                    String.class)).containsExactly(OWNER);
            service.stop();
            assertThat(service.exitCode()).isZero();
        }
    }

    @Test
    @DisplayName("Scenario: A privileged login is refused at start, in one line, when no runtime login may be made for it")
    void privilegedLoginWithoutRuntimeLoginIsRefused() throws Exception {
        TestDatabase database = TestDatabase.createSeparate();
        try {
            Path work = Files.createTempDirectory("claimguard-refused-");
            Map<String, String> settings = settings(work, database, database.username(), database.password());
            settings.put("claimguard.database.runtime-login", "");
            String line = refusal(work, settings);
            assertThat(line).contains("the login " + database.username() + " (spring.datasource.username) could change or "
                    + "remove audit rows (" + database.username() + " is a superuser)")
                    .contains("claimguard.database.runtime-login is blank")
                    .contains("claimguard.database.allow-privileged-login=true");
        } finally {
            database.drop();
        }
    }

    @Test
    @DisplayName("Scenario: A privileged login that may not make the runtime login is refused at start, in one line")
    void ownerWithoutCreateroleIsRefused() throws Exception {
        Path work = Files.createTempDirectory("claimguard-owner-refused-");
        Map<String, String> settings = settings(work, twoLogins, OWNER, OWNER_PASSWORD);
        settings.put("claimguard.database.runtime-login", "cg_not_made_" + RUN);
        String line = refusal(work, settings);
        assertThat(line).contains("the login " + OWNER + " (spring.datasource.username) could change or remove audit rows ("
                + OWNER + " owns schema claimguard; " + OWNER + " owns claimguard.")
                .containsPattern("; and \\d+ more\\)")
                .contains("cannot make the runtime login cg_not_made_" + RUN + " (claimguard.database.runtime-login): "
                        + "permission denied to create role")
                .contains("claimguard.database.allow-privileged-login=true");
        assertThat(new JdbcTemplate(new DriverManagerDataSource(twoLogins.jdbcUrl(), twoLogins.username(),
                twoLogins.password())).queryForObject("SELECT count(*) FROM pg_roles WHERE rolname = ?", Long.class,
                "cg_not_made_" + RUN)).isZero();
    }

    @Test
    @DisplayName("Scenario: A trial on a privileged login runs on it as it is and says so at WARN at every start")
    void trialWarnsAtEveryStart() throws Exception {
        TestDatabase database = TestDatabase.createSeparate();
        Path work = Files.createTempDirectory("claimguard-trial-");
        Map<String, String> settings = settings(work, database, database.username(), database.password());
        settings.put("claimguard.database.allow-privileged-login", "true");
        try (ServiceProcess service = service(work, settings)) {
            for (int start = 1; start <= 2; start++) {
                service.start();
                service.awaitReady(PATIENCE);
                List<String> log = Files.readAllLines(service.currentLog());
                assertThat(log).filteredOn(line -> line.contains(" WARN ")
                        && line.contains("ClaimGuard runs on a privileged login, for a trial only "
                                + "(claimguard.database.allow-privileged-login=true): the login " + database.username()
                                + " (spring.datasource.username) could change or remove audit rows ("
                                + database.username() + " is a superuser), and so could whoever holds one of its connections"))
                        .as("start %d", start).hasSize(1);
                assertThat(log).anyMatch(line -> line.contains("(schema claimguard) as " + database.username()
                        + " (a privileged login, for a trial only: claimguard.database.allow-privileged-login), acting as "
                        + "claimguard_writer;"));
                assertThat(new JdbcTemplate(database.dataSource()).queryForList(
                        "SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()",
                        String.class, database.databaseName())).containsExactly(database.username());
                service.stop();
                assertThat(service.exitCode()).isZero();
            }
        } finally {
            database.drop();
        }
    }

    /**
     * Starts the service, which must stop by itself with a failed start: its log holds exactly one line with the
     * refusal, and no stack trace. Returns that line.
     */
    private static String refusal(Path work, Map<String, String> settings) throws IOException {
        try (ServiceProcess service = service(work, settings)) {
            service.start();
            await().atMost(PATIENCE).until(() -> !service.alive());
            assertThat(service.exitCode()).isNotZero();
            List<String> log = Files.readAllLines(service.currentLog());
            List<String> refusals = log.stream().filter(line -> line.contains(REFUSAL)).toList();
            assertThat(refusals).as(String.join("\n", log)).hasSize(1);
            assertThat(refusals.get(0)).startsWith(REFUSAL);
            assertThat(log).as("no stack trace").noneMatch(line -> line.startsWith("\tat ") || line.startsWith("Caused by"));
            return refusals.get(0);
        }
    }

    private static Map<String, String> settings(Path work, TestDatabase database, String login, String password) {
        Map<String, String> settings = new HashMap<>();
        settings.put("spring.datasource.url", database.jdbcUrl());
        settings.put("spring.datasource.username", login);
        settings.put("spring.datasource.password", password);
        settings.put("claimguard.file.inbox", work.resolve("inbox").toString());
        settings.put("claimguard.file.outbox", work.resolve("outbox").toString());
        settings.put("claimguard.broker.data-directory", work.resolve("artemis").toString());
        settings.put("claimguard.broker.acceptor-url", "");
        settings.put("claimguard.seal.period", "200ms");
        settings.put("claimguard.management.port", Integer.toString(FreePort.onLoopback()));
        return settings;
    }

    private static ServiceProcess service(Path work, Map<String, String> settings) {
        return new ServiceProcess(ServiceProcess.findJar(), ServiceProcess.SMALL_JVM_OPTIONS, settings, work,
                Integer.parseInt(settings.get("claimguard.management.port")));
    }

    private static void drop(Path inbox, String requestId) throws IOException {
        Files.createDirectories(inbox);
        Path temporary = inbox.resolve(requestId + ".json.tmp");
        Files.write(temporary, utf8(passingV1(requestId)));
        Files.move(temporary, inbox.resolve(requestId + ".json"), StandardCopyOption.ATOMIC_MOVE);
    }
}
