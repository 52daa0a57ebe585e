package io.claimguard.testkit;

import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerUsers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A standalone Apache ActiveMQ Artemis broker in a process of its own, as an organisation runs one: the
 * distribution from Maven Central ({@code org.apache.activemq:apache-artemis:<version>:tar.gz:bin}, unpacked into
 * {@code target/artemis/} by the build), an instance made with {@code artemis create} in a folder of the caller's,
 * the queues, address settings and security settings of {@code deploy/artemis/broker.properties} (the file the README
 * gives operators), login required, on a free loopback port. Its users are made as the README tells operators: the
 * {@link TestBrokerUsers}, each with its ClaimGuard role, in the instance's {@code artemis-users.properties} and
 * {@code artemis-roles.properties}; the administrator {@code artemis create} makes has a random password nobody uses.
 * {@link #stop()} is a graceful shutdown, {@link #kill()} a SIGKILL; both leave the journal, and {@link #start()}
 * brings the same broker back.
 */
public final class ExternalArtemis implements AutoCloseable {
    /** The file operators apply to their broker, applied here as it ships. */
    public static final Path BROKER_PROPERTIES = Path.of("deploy/artemis/broker.properties");
    private static final Path DISTRIBUTIONS = Path.of("target/artemis");
    private static final Duration START_PATIENCE = Duration.ofSeconds(90);

    private final Path instance;
    private final int port;
    private Process process;
    private int starts;

    private ExternalArtemis(Path instance, int port) {
        this.instance = instance;
        this.port = port;
    }

    /**
     * Creates a broker instance in {@code folder} and starts it. {@code queueNames} renames the three queues of
     * {@link #BROKER_PROPERTIES} (keys {@code verifier.results}, {@code verifier.effective},
     * {@code verifier.results.DLQ}) for tests that use names of their own; an empty map keeps them.
     */
    public static ExternalArtemis create(Path folder, Map<String, String> queueNames) {
        Path home = distribution();
        int port = FreePort.onLoopback();
        Path instance = folder.resolve("broker");
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + folder, e);
        }
        run(folder, List.of("bash", home.resolve("bin/artemis").toString(), "create", instance.toString(),
                "--user", "admin", "--password", UUID.randomUUID().toString(), "--require-login", "--silent", "--no-web",
                "--host", "127.0.0.1", "--default-port", Integer.toString(port),
                "--no-amqp-acceptor", "--no-mqtt-acceptor", "--no-stomp-acceptor", "--no-hornetq-acceptor",
                "--no-autotune", "--no-fsync"));
        try {
            String properties = Files.readString(BROKER_PROPERTIES);
            // longest first, so that verifier.results.DLQ is not renamed as verifier.results + .DLQ
            for (String name : queueNames.keySet().stream().sorted((a, b) -> b.length() - a.length()).toList()) {
                properties = properties.replace("\"" + name + "\"", "\"" + queueNames.get(name) + "\"")
                        .replace("=" + name + "\n", "=" + queueNames.get(name) + "\n");
            }
            Files.writeString(instance.resolve("etc/broker.properties"), properties);
            addUsers(instance, TestBrokerUsers.users());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot apply " + BROKER_PROPERTIES + " to the broker in " + instance, e);
        }
        ExternalArtemis broker = new ExternalArtemis(instance, port);
        broker.start();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::kill, "stop-artemis-" + port));
        return broker;
    }

    /**
     * Adds each login, with its role's Artemis role, to the instance's JAAS properties files ({@code user = password} in
     * {@code artemis-users.properties}, {@code role = user} in {@code artemis-roles.properties}): what
     * {@code artemis user add --user-command-user U --user-command-password P --role R} does, without a JVM per user.
     */
    private static void addUsers(Path instance, BrokerUsers users) throws IOException {
        StringBuilder logins = new StringBuilder("\n");
        StringBuilder roles = new StringBuilder("\n");
        users.logins().forEach((role, login) -> {
            logins.append(login.user()).append(" = ").append(login.password()).append('\n');
            roles.append(role.artemisRole()).append(" = ").append(login.user()).append('\n');
        });
        Files.writeString(instance.resolve("etc/artemis-users.properties"), logins, StandardOpenOption.APPEND);
        Files.writeString(instance.resolve("etc/artemis-roles.properties"), roles, StandardOpenOption.APPEND);
    }

    /** The URL a client connects to: the broker's one acceptor, which speaks CORE (and AMQP). */
    public String url() {
        return "tcp://127.0.0.1:" + port;
    }

    /** The port of the broker's one acceptor (CORE and AMQP). */
    public int port() {
        return port;
    }

    /** The broker's process id (its JVM: {@code artemis run} execs {@code java}). */
    public synchronized long pid() {
        return process.pid();
    }

    /** Starts the broker (again) and waits until its acceptor answers. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the broker is already running as pid " + process.pid());
        }
        starts++;
        Path log = instance.resolve("log/run-" + starts + ".log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(instance.resolve("bin/artemis").toString(), "run")
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            // a small heap: the broker shares two cores and the memory with the service and PostgreSQL
            builder.environment().put("JAVA_ARGS", "-Xms64m -Xmx384m -XX:+UseG1GC -Dlog4j2.disableJmx=true"
                    + " --add-opens java.base/jdk.internal.misc=ALL-UNNAMED");
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the broker in " + instance, e);
        }
        Process started = process;
        await("the broker's acceptor on port " + port + " (log: " + log + ")").atMost(START_PATIENCE)
                .pollInterval(Duration.ofMillis(200))
                .failFast("the broker exited, see " + log, () -> !started.isAlive())
                .until(() -> Files.readString(log).contains("AMQ221007") && FreePort.listening(port));
    }

    /** A graceful stop (SIGTERM): the broker closes its journal and its clients see it go. */
    public synchronized void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            waitForExit();
        }
    }

    /** SIGKILL: the broker disappears as with a crash; its journal keeps what it had committed. */
    public synchronized void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            waitForExit();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void waitForExit() {
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the broker stopped", e);
        }
    }

    /** The one {@code apache-artemis-*} folder the build unpacked. */
    private static Path distribution() {
        List<Path> homes;
        try (Stream<Path> folders = Files.list(DISTRIBUTIONS)) {
            homes = folders.filter(folder -> Files.isRegularFile(folder.resolve("bin/artemis"))).toList();
        } catch (IOException e) {
            homes = List.of();
        }
        if (homes.size() != 1) {
            throw new IllegalStateException("expected one Artemis distribution in " + DISTRIBUTIONS.toAbsolutePath()
                    + ", found " + homes + ": the build unpacks it (./mvnw process-test-resources)");
        }
        return homes.get(0);
    }

    private static void run(Path folder, List<String> command) {
        try {
            Path log = Files.createTempFile(folder, "artemis-create-", ".log");
            Process create = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!create.waitFor(120, TimeUnit.SECONDS) || create.exitValue() != 0) {
                create.destroyForcibly();
                throw new IllegalStateException("artemis create failed: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the broker", e);
        }
    }
}
