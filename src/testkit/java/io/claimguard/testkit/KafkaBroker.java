package io.claimguard.testkit;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A real Apache Kafka broker in KRaft mode (one node, broker and controller at once) in a JVM of its own: the
 * {@code org.apache.kafka:kafka_2.13} server from Maven Central, started with {@code kafka.Kafka} on the caller's
 * classpath (the test classpath holds it), its storage formatted with {@code kafka.tools.StorageTool} in a folder of
 * the caller's, on free loopback ports. {@link #stop()} is a graceful shutdown, {@link #kill()} a SIGKILL; both keep
 * the log directory, and {@link #start()} brings the same broker back on the same port.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Duration START_PATIENCE = Duration.ofSeconds(90);

    private final Path folder;
    private final Path config;
    private final int port;
    private Process process;
    private int starts;

    private KafkaBroker(Path folder, Path config, int port) {
        this.folder = folder;
        this.config = config;
        this.port = port;
    }

    /** Formats a broker's storage in {@code folder} and starts it. */
    public static KafkaBroker create(Path folder) {
        int port = FreePort.onLoopback();
        int controllerPort = FreePort.onLoopback();
        Path config = folder.resolve("server.properties");
        try {
            Files.createDirectories(folder);
            Files.writeString(config, String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER",
                    "inter.broker.listener.name=PLAINTEXT",
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "log.dirs=" + folder.resolve("logs").toAbsolutePath(),
                    "num.partitions=1",
                    "auto.create.topics.enable=false",
                    // room for an input bigger than ClaimGuard's limit, which must reach the dead-letter topic whole
                    "message.max.bytes=" + (KafkaClient.MAX_RECORD_BYTES + 1024),
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=4",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    // a broker killed and started again registers at once, instead of after the default 9 s
                    "broker.session.timeout.ms=2000",
                    "broker.heartbeat.interval.ms=500",
                    "") );
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Kafka configuration in " + folder, e);
        }
        Path log = folder.resolve("format.log");
        runToCompletion(log, List.of("kafka.tools.StorageTool", "format", "--cluster-id", Uuid.randomUuid().toString(),
                "--config", config.toAbsolutePath().toString()));
        KafkaBroker broker = new KafkaBroker(folder, config, port);
        broker.start();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::kill, "stop-kafka-" + port));
        return broker;
    }

    /** What a client gives as {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public synchronized long pid() {
        return process.pid();
    }

    /** Creates the topics, each with {@code partitions} partitions (one replica: there is one broker). */
    public void createTopics(int partitions, String... names) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            List<NewTopic> topics = new ArrayList<>();
            for (String name : names) {
                topics.add(new NewTopic(name, partitions, (short) 1));
            }
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create the topics " + List.of(names), e.getCause());
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the topics " + List.of(names), e);
        }
    }

    /** Starts the broker (again) and waits until it serves clients. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the Kafka broker is already running as pid " + process.pid());
        }
        starts++;
        Path log = folder.resolve("run-" + starts + ".log");
        process = startJava(log, List.of("kafka.Kafka", config.toAbsolutePath().toString()));
        Process started = process;
        await("the Kafka broker on port " + port + " (log: " + log + ")").atMost(START_PATIENCE)
                .pollInterval(Duration.ofMillis(200))
                .failFast("the Kafka broker exited, see " + log, () -> !started.isAlive())
                .until(this::servesClients);
    }

    /** A graceful stop (SIGTERM): the broker leaves its log in order. */
    public synchronized void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            waitForExit();
        }
    }

    /** SIGKILL: the broker disappears as with a crash. */
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

    private boolean servesClients() {
        if (!FreePort.listening(port)) {
            return false;
        }
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        try (Admin admin = Admin.create(properties)) {
            return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private void waitForExit() {
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the Kafka broker stopped", e);
        }
    }

    /** A JVM on this one's classpath running {@code mainAndArguments}, its output in {@code log}. */
    private static Process startJava(Path log, List<String> mainAndArguments) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // a small heap: the broker shares two cores and the memory with the service and PostgreSQL
                "-Xms64m", "-Xmx384m", "-XX:+UseG1GC", "-Dlog4j2.disableJmx=true",
                "-cp", System.getProperty("java.class.path")));
        command.addAll(mainAndArguments);
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + mainAndArguments, e);
        }
    }

    private static void runToCompletion(Path log, List<String> mainAndArguments) {
        Process tool = startJava(log, mainAndArguments);
        try {
            if (!tool.waitFor(120, TimeUnit.SECONDS) || tool.exitValue() != 0) {
                tool.destroyForcibly();
                throw new IllegalStateException(mainAndArguments.get(0) + " failed: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while formatting the Kafka storage", e);
        }
    }
}
