package io.claimguard.harness.faults;

import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
import io.claimguard.broker.CredentialsFile;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.cli.ClaimGuardCli;
import io.claimguard.testkit.ExternalArtemis;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.HarnessArguments;
import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.HarnessInput.Kind;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TcpProxy;
import io.claimguard.testkit.TestBrokerUsers;
import io.claimguard.testkit.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.LoggerFactory;

/**
 * Runs the service jar as a separate process against a throwaway database, feeds it a backlog (half JMS, half
 * files, or in the Kafka mode all Kafka records; valid, rejected and poison inputs), kills it with SIGKILL, cuts it
 * off from PostgreSQL and restarts its broker while the backlog drains, then accounts for every input: each valid one
 * audited exactly once and forwarded, each rejected or poison one dead-lettered with its exact bytes. Exits 0 only if
 * nothing was lost or duplicated, every promise held and health went DOWN in every outage.
 *
 * <p>{@code ./mvnw -B -Pfaults -DskipTests package} (reduced run), with {@code -Dfaults.args=--full} for the full
 * one, {@code --topology}, {@code --kafka} or {@code --hostile} ({@link HostileRun}) for the other modes; see
 * docs/development.md, "Reliability", {@link HarnessOptions#USAGE} and {@link HostileOptions#USAGE}.
 */
public final class FaultHarness {

    private static final String INPUT_QUEUE = "verifier.results";
    private static final String OUTPUT_QUEUE = "verifier.effective";
    private static final String DEAD_LETTER_QUEUE = "verifier.results.DLQ";

    /** A start on two busy cores takes 10-20 s; three minutes means it is not coming up. */
    private static final Duration START_PATIENCE = Duration.ofMinutes(3);
    /** After an outage: outage retries back off to 15 s, so a recovery takes at most that plus a little. */
    private static final Duration RECOVERY_PATIENCE = Duration.ofSeconds(90);
    /** Waiting for the backlog to reach a fault's moment: longer means the service is stuck. */
    private static final Duration PROGRESS_PATIENCE = Duration.ofMinutes(10);
    /** The drain ends when the inbox and input queue are empty and no row has been committed for this long. */
    private static final Duration SETTLED = Duration.ofSeconds(30);
    /** Faults happen between these shares of the backlog's rows, so that there is work before and after each. */
    private static final double FIRST_FAULT_AT = 0.05;
    private static final double LAST_FAULT_BY = 0.85;

    private static final Pattern METRIC_LINE = Pattern.compile("^(\\w+)(\\{[^}]*})?\\s+(\\S+)$", Pattern.MULTILINE);

    enum Fault { KILL, OUTAGE, BROKER_RESTART, ADD_INSTANCE }

    private final HarnessOptions options;
    private final Random random;
    private final Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private FaultHarness(HarnessOptions options) {
        this.options = options;
        this.random = new Random(options.seed());
    }

    public static void main(String[] args) {
        if (HostileOptions.asked(args)) {
            hostile(HarnessArguments.parseOrExit(args, HostileOptions::parse));
        }
        HarnessOptions options = HarnessArguments.parseOrExit(args, HarnessOptions::parse);
        quietLibraries();
        int exitCode;
        try {
            exitCode = new FaultHarness(options).run();
        } catch (Exception e) {
            System.err.println("fault harness failed: " + e);
            e.printStackTrace();
            exitCode = 1;
        }
        // the shutdown hooks kill the service if it still runs and drop the database
        System.exit(exitCode);
    }

    /** The hostile mode ({@link HostileRun}); exits with its result. */
    private static void hostile(HostileOptions options) {
        quietLibraries();
        int exitCode;
        try {
            exitCode = HostileRun.run(options);
        } catch (Exception e) {
            System.err.println("hostile run failed: " + e);
            e.printStackTrace();
            exitCode = 1;
        }
        System.exit(exitCode);
    }

    /**
     * TestDatabase asks Testcontainers for Docker first and falls back to the local PostgreSQL; without Docker
     * that question logs a page of ERROR lines that would read like a harness failure. The Kafka clients log every
     * client's whole configuration, and a warning for every attempt to reach a Kafka the run has stopped: errors only.
     */
    private static void quietLibraries() {
        quiet("org.testcontainers", ch.qos.logback.classic.Level.OFF);
        quiet("org.apache.kafka", ch.qos.logback.classic.Level.ERROR);
    }

    private static void quiet(String loggerName, ch.qos.logback.classic.Level level) {
        if (LoggerFactory.getLogger(loggerName) instanceof ch.qos.logback.classic.Logger logger) {
            logger.setLevel(level);
        }
    }

    private int run() throws Exception {
        String runId = HexFormat.of().toHexDigits(random.nextInt()).substring(0, 6);
        Path work = Files.createTempDirectory("claimguard-faults-");
        Path inbox = Files.createDirectories(work.resolve("inbox"));
        Path outbox = Files.createDirectories(work.resolve("outbox"));
        Path logs = Files.createDirectories(work.resolve("logs"));
        log("%s run: %,d inputs, %d instance(s)%s, %d kills, %d outages of %d s, seed %d, work in %s", options.size(),
                options.inputs(), options.instances(), options.topology() ? String.format(Locale.ROOT,
                        " on a standalone broker and a shared inbox, %d added, %d broker restarts", options.addedInstances(),
                        options.brokerRestarts())
                        : options.kafka() ? String.format(Locale.ROOT, " on a Kafka broker%s, %d Kafka restarts",
                                options.severalInstances() ? String.format(Locale.ROOT, " in one consumer group, %d added",
                                        options.addedInstances()) : "", options.brokerRestarts()) : "",
                options.kills(), options.outages(),
                options.outageLength().toSeconds(), options.seed(), work);

        Backlog backlog = options.kafka() ? Backlog.generateKafka(options.inputs(), runId, random, Path.of("examples"))
                : Backlog.generate(options.inputs(), runId, random, Path.of("examples"), options.topology());
        long distinctValid = backlog.all().stream().filter(input -> input.kind() == Kind.VALID)
                .map(HarnessInput::sha256).distinct().count();
        long badInputs = backlog.count(Kind.REJECTED) + backlog.count(Kind.POISON) + backlog.count(Kind.UNSUPPORTED);
        long expectedRows = distinctValid + badInputs;

        TestDatabase database = TestDatabase.createSeparate();
        ExternalArtemis broker = options.topology() ? ExternalArtemis.create(work.resolve("broker"), Map.of()) : null;
        KafkaEntry kafka = options.kafka() ? KafkaEntry.start(work.resolve("kafka")) : null;
        RestartedBroker restarted = broker != null ? new RestartedBroker(broker::stop, broker::kill, broker::start)
                : kafka != null ? new RestartedBroker(kafka.broker()::stop, kafka.broker()::kill, kafka.broker()::start) : null;
        try (TcpProxy proxy = new TcpProxy(database.host(), database.port());
                Instances instances = new Instances(database, proxy, broker, kafka, inbox, outbox, work, logs);
                Connection sql = database.connect()) {
            // every exit path, also Ctrl-C: no new database connections for the service, then the service dies;
            // TestDatabase's own hook drops the database, ExternalArtemis's and KafkaBroker's kill the brokers
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                proxy.cut();
                instances.close();
            }, "fault-harness-cleanup"));
            Run run = new Run(instances, restarted, kafka, proxy, sql, expectedRows);

            for (int i = 0; i < options.instances(); i++) {
                instances.add();
            }
            instances.awaitAllReady(START_PATIENCE);
            log("%s up (%s), database %s via proxy port %d", options.severalInstances() ? options.instances() + " instances" : "service",
                    instances.describe(), database.databaseName(), proxy.port());

            Backlog.refusePoison(sql);
            JmsClient jms = broker != null ? new JmsClient(broker.url(), TestBrokerUsers.users())
                    : new JmsClient(instances.embeddedBrokerUrl(), instances.embeddedBrokerLogins());
            List<Fault> plan = faultPlan();
            // Several instances drain a backlog faster than faults can be injected: in the topology mode it is fed in
            // slices, one more before each fault, so that every fault hits a backlog that is still draining.
            int slices = options.severalInstances() ? plan.size() + 1 : 1;
            Map<String, String> sourceRefs = new HashMap<>();
            IntUnaryOperator feeder = slice -> {
                try {
                    sourceRefs.putAll(feed(backlog.slice(slice, slices), jms, kafka, inbox));
                } catch (Exception e) {
                    throw new IllegalStateException("cannot feed slice " + (slice + 1) + " of the backlog", e);
                }
                return (int) Math.min(backlog.all().size(), (long) backlog.all().size() * (slice + 1) / slices);
            };
            feeder.applyAsInt(0);
            log("backlog fed%s: %s in all; %,d of %,d rows committed so far",
                    slices > 1 ? String.format(Locale.ROOT, " (first of %d slices)", slices) : "", kafka != null
                            ? String.format(Locale.ROOT, "%,d Kafka records", backlog.kafka().size())
                            : String.format(Locale.ROOT, "%,d JMS messages (%d of them Map, Stream or Object), %,d files",
                                    backlog.jms().size(), backlog.count(Kind.UNSUPPORTED), backlog.files().size()),
                    run.progress(), expectedRows);

            run.injectFaults(plan, slices > 1 ? feeder : null, backlog.all().size());
            boolean drained = run.awaitDrained(kafka != null ? kafka::committedToEnd
                    : () -> jsonFilesIn(inbox) == 0 && run.inputQueueEmpty(jms));
            log("backlog %s: %,d of %,d rows; reading the output and dead-letter %s", drained ? "drained" : "NOT drained",
                    run.progress(), expectedRows, kafka != null ? "topics" : "queues");

            List<Accounting.Sent> outputs;
            List<Accounting.Sent> deadLetterCopies;
            if (kafka != null) {
                outputs = kafka.read(KafkaEntry.OUTPUT_TOPIC);
                deadLetterCopies = kafka.read(KafkaEntry.DEAD_LETTER_TOPIC);
            } else {
                int limit = options.inputs() * 3 + 1_000;
                outputs = jms.drain(OUTPUT_QUEUE, Duration.ofSeconds(3), limit, Duration.ofMinutes(10)).stream()
                        .map(Accounting.Sent::of).toList();
                // an operator may browse the dead-letter queue, nobody may take from it
                deadLetterCopies = jms.browse(DEAD_LETTER_QUEUE, limit).stream().map(Accounting.Sent::of).toList();
            }
            instances.stopAll();
            log("service stopped; %,d results, %,d dead-letter copies", outputs.size(), deadLetterCopies.size());
            List<String> chainProblems = new ArrayList<>();
            List<String> chainCheck = verifyChain(database, instances.checkpointDirectories(), instances.publicKey(), sql,
                    chainProblems);
            log("verify-chain: %s", String.join("; ", chainCheck));

            Accounting.Result accounting = Accounting.account(backlog, sql, outputs, deadLetterCopies, inbox, outbox,
                    sourceRefs);
            List<String> problems = new ArrayList<>();
            if (!drained) {
                problems.add("the backlog did not drain within " + options.drainTimeout().toSeconds() + " s after the last fault");
            }
            FaultReport.Kafka offsets = kafka != null ? kafka.offsets() : null;
            if (offsets != null) {
                offsets.partitions().stream().filter(partition -> !partition.atEnd()).forEach(partition -> problems.add(
                        "partition " + offsets.inputTopic() + "-" + partition.partition() + ": committed offset "
                                + partition.committedOffset() + ", end offset " + partition.endOffset()));
            }
            problems.addAll(run.faultProblems);
            problems.addAll(accounting.problems());
            problems.addAll(chainProblems);
            FaultReport report = report(backlog, distinctValid, run, accounting, duplicatesLogged(logs), offsets, chainCheck,
                    problems, machine(sql));

            System.out.println();
            System.out.print(report.table());
            if (!problems.isEmpty()) {
                System.out.println("\nproblems (" + problems.size() + "):");
                problems.stream().limit(FaultReport.LISTED_PROBLEMS).forEach(problem -> System.out.println("  " + problem));
            }
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started);
            Path written = report.write(options.resultsDir(), stamp);
            log("results written to %s (and .md)", written);
            if (broker != null) {
                broker.kill();
            }
            if (kafka != null) {
                kafka.close();
            }
            if (report.passed() && !options.keepWork()) {
                deleteRecursively(work);
            } else {
                log("work folder kept for inspection: %s (service logs in %s)", work, logs);
            }
            return report.passed() ? 0 : 1;
        }
    }

    /**
     * The service processes of a run. Alone (one instance), the service runs its embedded broker, whose journal
     * survives a kill; in the topology mode every instance uses the standalone broker, shares the inbox and names
     * itself {@code instance-<n>}. Each instance logs into a folder of its own.
     */
    private final class Instances implements AutoCloseable {

        private final TestDatabase database;
        private final TcpProxy proxy;
        private final ExternalArtemis broker;
        private final KafkaEntry kafka;
        private final Path inbox;
        private final Path outbox;
        private final Path work;
        private final Path logs;
        private final int embeddedBrokerPort = FreePort.onLoopback();
        private final List<ServiceProcess> all = new ArrayList<>();

        Instances(TestDatabase database, TcpProxy proxy, ExternalArtemis broker, KafkaEntry kafka, Path inbox, Path outbox,
                Path work, Path logs) {
            this.database = database;
            this.proxy = proxy;
            this.broker = broker;
            this.kafka = kafka;
            this.inbox = inbox;
            this.outbox = outbox;
            this.work = work;
            this.logs = logs;
        }

        /** Starts one more instance; does not wait for it. */
        synchronized ServiceProcess add() throws IOException {
            int number = all.size() + 1;
            int managementPort = FreePort.onLoopback();
            while (managementPort == embeddedBrokerPort) {
                managementPort = FreePort.onLoopback();
            }
            Map<String, String> properties = new LinkedHashMap<>();
            properties.put("spring.datasource.url", database.jdbcUrl("127.0.0.1", proxy.port()));
            properties.put("spring.datasource.username", database.username());
            properties.put("spring.datasource.password", database.password());
            properties.put("claimguard.management.port", Integer.toString(managementPort));
            properties.put("claimguard.file.inbox", inbox.toString());
            properties.put("claimguard.file.outbox", outbox.toString());
            properties.put("claimguard.instance-id", "instance-" + number);
            properties.put("claimguard.checkpoint.private-key", signingKey().toString());
            properties.put("claimguard.checkpoint.directory", checkpointDirectory(number).toString());
            properties.put("claimguard.checkpoint.period", "2s");
            // every instance signs its results with the one key the first start makes
            properties.put("claimguard.result-signing.generated-key", work.resolve("keys/result-signing.key").toString());
            if (broker == null) {
                // the first instance's broker is the one the harness sends to; in the Kafka mode every further instance
                // has an embedded broker of its own (nothing is sent to it)
                int acceptorPort = number == 1 ? embeddedBrokerPort : FreePort.onLoopback();
                properties.put("claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + acceptorPort);
                // the same journal on every start, so that messages on the queues survive SIGKILL; no login is
                // configured: the first start generates them into the credentials file there, every restart reads it
                properties.put("claimguard.broker.data-directory", Files.createDirectories(
                        work.resolve(number == 1 ? "artemis" : "artemis-" + number)).toString());
                if (number > 1) {
                    properties.put("claimguard.file.inbox", Files.createDirectories(work.resolve("inbox-" + number)).toString());
                    properties.put("claimguard.file.outbox", Files.createDirectories(work.resolve("outbox-" + number)).toString());
                }
            } else {
                properties.put("spring.artemis.mode", "native");
                properties.put("spring.artemis.broker-url", broker.url());
                properties.put("spring.artemis.user", TestBrokerUsers.login(BrokerRole.SERVICE).user());
                properties.put("spring.artemis.password", TestBrokerUsers.login(BrokerRole.SERVICE).password());
                properties.put("claimguard.file.shared", "true");
                properties.put("claimguard.file.leader-check-interval", "1s");
                // several JVMs share two cores: fewer batch sessions each, a smaller heap
                properties.put("claimguard.jms.concurrent-consumers", "2");
            }
            if (kafka != null) {
                properties.putAll(kafka.serviceProperties());
            }
            List<String> jvmOptions = !options.severalInstances() ? ServiceProcess.DEFAULT_JVM_OPTIONS : List.of("-Xmx384m", "-XX:TieredStopAtLevel=1");
            ServiceProcess instance = new ServiceProcess(options.jar(), jvmOptions, properties,
                    Files.createDirectories(logs.resolve("instance-" + number)), managementPort);
            all.add(instance);
            instance.start();
            return instance;
        }

        /** The key every instance signs its checkpoints with, made at the first start. */
        private Path signingKey() throws IOException {
            Path key = work.resolve("checkpoint.key");
            if (!Files.exists(key)) {
                KeyPair pair = Ed25519Keys.generate();
                Files.writeString(key, Ed25519Keys.signingKeyPem(pair));
                Files.writeString(publicKey(), Ed25519Keys.publicKeyPem(pair.getPublic()));
            }
            return key;
        }

        Path publicKey() {
            return work.resolve("checkpoint.key.pub");
        }

        /** Each instance appends to a directory of its own, as instances on different hosts would. */
        private Path checkpointDirectory(int number) {
            return work.resolve("checkpoints").resolve("instance-" + number);
        }

        synchronized List<Path> checkpointDirectories() {
            return IntStream.rangeClosed(1, all.size()).mapToObj(this::checkpointDirectory).toList();
        }

        synchronized List<ServiceProcess> all() {
            return List.copyOf(all);
        }

        void awaitAllReady(Duration atMost) {
            all().forEach(instance -> instance.awaitReady(atMost));
        }

        String embeddedBrokerUrl() {
            return "tcp://127.0.0.1:" + embeddedBrokerPort;
        }

        /** The logins the embedded broker generated at the first start, read as the command-line tools read them. */
        BrokerUsers embeddedBrokerLogins() {
            return CredentialsFile.read(work.resolve("artemis").resolve("credentials.properties"));
        }

        String describe() {
            return all().stream().map(instance -> "pid " + instance.pid()).collect(Collectors.joining(", "))
                    + (broker == null ? ", embedded broker " + embeddedBrokerUrl() : ", broker " + broker.url())
                    + (kafka == null ? "" : ", Kafka " + kafka.broker().bootstrapServers());
        }

        void stopAll() {
            all().forEach(ServiceProcess::stop);
        }

        @Override
        public void close() {
            all().forEach(ServiceProcess::close);
        }
    }

    /**
     * Every channel at once; every file written under a temporary name and renamed, as writers must. Returns the
     * {@code source_ref} of each input sent by JMS or Kafka, by tag.
     */
    private static Map<String, String> feed(Backlog inputs, JmsClient jms, KafkaEntry kafka, Path inbox) throws Exception {
        ExecutorService feeders = Executors.newFixedThreadPool(3);
        try {
            Future<?> files = feeders.submit(() -> {
                for (HarnessInput input : inputs.files()) {
                    Path temporary = inbox.resolve(input.tag() + ".tmp");
                    Files.write(temporary, input.bytes());
                    Files.move(temporary, inbox.resolve(input.fileName()), StandardCopyOption.ATOMIC_MOVE);
                }
                return null;
            });
            Future<Map<String, String>> messages = feeders.submit(() -> inputs.jms().isEmpty() ? Map.<String, String>of()
                    : jms.send(INPUT_QUEUE, inputs.jms()));
            Future<Map<String, String>> records = feeders.submit(() -> inputs.kafka().isEmpty() ? Map.<String, String>of()
                    : kafka.produce(inputs.kafka()));
            files.get(10, TimeUnit.MINUTES);
            Map<String, String> sourceRefs = new HashMap<>(messages.get(10, TimeUnit.MINUTES));
            sourceRefs.putAll(records.get(10, TimeUnit.MINUTES));
            return sourceRefs;
        } finally {
            feeders.shutdownNow();
        }
    }

    /** The kills and outages in a random order, each at a random moment of its own slice of the backlog. */
    private List<Fault> faultPlan() {
        List<Fault> plan = new ArrayList<>();
        for (int i = 0; i < options.kills(); i++) {
            plan.add(Fault.KILL);
        }
        for (int i = 0; i < options.outages(); i++) {
            plan.add(Fault.OUTAGE);
        }
        for (int i = 0; i < options.brokerRestarts(); i++) {
            plan.add(Fault.BROKER_RESTART);
        }
        for (int i = 0; i < options.addedInstances(); i++) {
            plan.add(Fault.ADD_INSTANCE);
        }
        Collections.shuffle(plan, random);
        return plan;
    }

    /** The broker a run restarts: the standalone Artemis broker (topology mode) or Kafka (Kafka mode). */
    private record RestartedBroker(Runnable stop, Runnable kill, Runnable start) {
    }

    /** The state of one run while faults are injected. */
    private final class Run {

        private final Instances instances;
        private final RestartedBroker broker;
        private final KafkaEntry kafka;
        private final TcpProxy proxy;
        private final Connection sql;
        private final long expectedRows;
        private final List<FaultReport.Kill> kills = new ArrayList<>();
        private final List<FaultReport.Outage> outages = new ArrayList<>();
        private final List<FaultReport.BrokerRestart> brokerRestarts = new ArrayList<>();
        private final List<FaultReport.Added> added = new ArrayList<>();
        private final List<String> faultProblems = new ArrayList<>();

        Run(Instances instances, RestartedBroker broker, KafkaEntry kafka, TcpProxy proxy, Connection sql, long expectedRows) {
            this.instances = instances;
            this.broker = broker;
            this.kafka = kafka;
            this.proxy = proxy;
            this.sql = sql;
            this.expectedRows = expectedRows;
        }

        /** Rows the service has committed: one audit row per distinct valid input, one dead_letter row per bad one. */
        long progress() {
            try {
                return Accounting.countRows(sql, "SELECT (SELECT count(*) FROM claimguard.verification_audit)"
                        + " + (SELECT count(*) FROM claimguard.dead_letter)");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot count the rows in the harness's database", e);
            }
        }

        double share() {
            return (double) progress() / expectedRows;
        }

        /**
         * @param feeder with a backlog fed in slices: feeds slice {@code n} and returns how many inputs are fed by then;
         *     null when the whole backlog was fed at once
         */
        void injectFaults(List<Fault> plan, IntUnaryOperator feeder, int totalInputs) throws IOException {
            long fedBefore = totalInputs / (plan.size() + 1);
            for (int index = 0; index < plan.size(); index++) {
                double moment = FIRST_FAULT_AT + (LAST_FAULT_BY - FIRST_FAULT_AT) * (index + random.nextDouble()) / plan.size();
                if (feeder != null) {
                    // the fault comes while the slice just fed drains: after 20-60 % of its rows
                    long fed = feeder.applyAsInt(index + 1);
                    double rowsPerInput = (double) expectedRows / totalInputs;
                    moment = (fedBefore + (fed - fedBefore) * (0.2 + 0.4 * random.nextDouble())) * rowsPerInput / expectedRows;
                    fedBefore = fed;
                }
                awaitProgress((long) Math.ceil(moment * expectedRows));
                switch (plan.get(index)) {
                    case KILL -> kill();
                    case OUTAGE -> outage();
                    case BROKER_RESTART -> brokerRestart();
                    case ADD_INSTANCE -> addInstance();
                }
            }
        }

        private void awaitProgress(long rows) {
            try {
                await("backlog at " + rows + " rows").atMost(PROGRESS_PATIENCE).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(100)).until(() -> {
                            for (ServiceProcess instance : instances.all()) {
                                if (!instance.alive()) {
                                    throw new IllegalStateException("an instance died on its own; last lines of "
                                            + instance.currentLog() + ":\n" + instance.logTail(40));
                                }
                            }
                            return progress() >= rows;
                        });
            } catch (ConditionTimeoutException e) {
                throw new IllegalStateException("the backlog is stuck at " + progress() + " of " + expectedRows
                        + " rows; the fault planned at " + rows + " rows was never reached", e);
            }
        }

        /** SIGKILL of one instance, chosen at random, then its restart. */
        private void kill() {
            int number = kills.size() + 1;
            double at = share();
            List<ServiceProcess> all = instances.all();
            ServiceProcess victim = all.get(random.nextInt(all.size()));
            long killedPid = victim.pid();
            Map<TopicPartition, Long> committedAtKill = kafka != null ? kafka.committedByPartition() : Map.of();
            Map<TopicPartition, Long> endsAtKill = kafka != null ? kafka.endOffsets() : Map.of();
            Instant killedAt = Instant.now();
            victim.kill();
            log("kill -9 #%d: pid %d at %.0f%% of the backlog", number, killedPid, at * 100);
            // with Kafka: how long until the dead consumer's partitions are committed again, by its restart or another
            CompletableFuture<Double> partitionsMoving = kafka == null ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.supplyAsync(() -> kafka.secondsUntilEveryPartitionMoves(committedAtKill, endsAtKill,
                            killedAt, RECOVERY_PATIENCE));
            victim.start();
            victim.awaitReady(START_PATIENCE);
            double seconds = secondsSince(killedAt);
            Double moving = partitionsMoving.join();
            kills.add(new FaultReport.Kill(number, at, killedPid, victim.pid(), seconds, moving));
            log("restarted as pid %d, ready %.1f s after the kill%s", victim.pid(), seconds, kafka == null ? ""
                    : moving == null ? "; partitions NOT all committing again"
                    : String.format(Locale.ROOT, "; every partition committing again %.1f s after the kill", moving));
            if (kafka != null && moving == null) {
                faultProblems.add("kill #" + number + ": not every partition with records left was committed again within "
                        + RECOVERY_PATIENCE.toSeconds() + " s");
            }
        }

        private void addInstance() throws IOException {
            double at = share();
            Instant asked = Instant.now();
            ServiceProcess instance = instances.add();
            instance.awaitReady(START_PATIENCE);
            double seconds = secondsSince(asked);
            added.add(new FaultReport.Added(added.size() + 1, at, instance.pid(), seconds));
            log("instance added as pid %d at %.0f%% of the backlog, ready in %.1f s", instance.pid(), at * 100, seconds);
        }

        /**
         * The standalone broker (or Kafka) stopped, gracefully or with SIGKILL on every second restart, and started
         * again after as long as a database outage lasts: every instance must reconnect by itself and be ready again,
         * with the same pid; with Kafka, the consumer must also commit offsets again. Readiness must say DOWN while
         * the Artemis broker is away; while Kafka is, it is only recorded (the service promises readiness DOWN for its
         * JMS broker, not for Kafka).
         */
        private void brokerRestart() {
            int number = brokerRestarts.size() + 1;
            String name = kafka != null ? "Kafka" : "broker";
            boolean graceful = number % 2 == 1;
            double at = share();
            Map<ServiceProcess, Long> pids = new LinkedHashMap<>();
            instances.all().forEach(instance -> pids.put(instance, instance.pid()));
            // nothing can be committed while Kafka is away: any offset beyond these is committed after its start
            long committedBefore = kafka != null ? kafka.committed() : 0;
            Instant down = Instant.now();
            if (graceful) {
                broker.stop().run();
            } else {
                broker.kill().run();
            }
            log("%s restart #%d (%s) at %.0f%% of the backlog", name, number, graceful ? "graceful" : "kill -9", at * 100);
            boolean[] downSeen = {false};
            // away as long as a database outage: 8 s in the reduced run, 30 s in the full one
            Instant restartDue = down.plus(options.outageLength());
            // readiness must say DOWN while the Artemis broker is away, and answer at once
            await(name + " away").atMost(options.outageLength().plusSeconds(30)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(500)).until(() -> {
                        for (ServiceProcess instance : pids.keySet()) {
                            if (instance.status("/actuator/health/readiness", Duration.ofSeconds(2)) == 503) {
                                downSeen[0] = true;
                            }
                        }
                        return Instant.now().isAfter(restartDue);
                    });
            broker.start().run();
            double secondsDown = secondsSince(down);
            Instant restarted = Instant.now();
            boolean recovered;
            try {
                await("every instance ready after " + name + " restart #" + number).atMost(RECOVERY_PATIENCE)
                        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250))
                        .until(() -> pids.keySet().stream().allMatch(instance -> instance.alive()
                                && instance.status("/actuator/health/readiness", Duration.ofSeconds(5)) == 200)
                                && (kafka == null || kafka.committed() > committedBefore || kafka.committedToEnd()));
                recovered = pids.entrySet().stream().allMatch(entry -> entry.getKey().pid() == entry.getValue());
            } catch (ConditionTimeoutException e) {
                recovered = false;
            }
            double toReady = secondsSince(restarted);
            brokerRestarts.add(new FaultReport.BrokerRestart(number, at, graceful, secondsDown, downSeen[0], recovered, toReady));
            log("%s restart #%d: down %.1f s, readiness DOWN seen: %s, every instance ready%s %.1f s after the start%s", name,
                    number, secondsDown, downSeen[0] ? "yes" : "no", kafka != null ? " and committing" : "", toReady,
                    recovered ? ", same pids" : ", NOT RECOVERED");
            if (!downSeen[0] && kafka == null) {
                faultProblems.add("broker restart #" + number + ": no instance's readiness answered 503 while the broker was down");
            }
            if (!recovered) {
                faultProblems.add(name + " restart #" + number + ": the instances were not ready"
                        + (kafka != null ? " and committing" : "") + " again within " + RECOVERY_PATIENCE.toSeconds()
                        + " s without a restart");
                pids.keySet().forEach(instance -> {
                    instance.kill();
                    instance.start();
                    instance.awaitReady(START_PATIENCE);
                });
            }
        }

        private void outage() {
            int number = outages.size() + 1;
            double at = share();
            Map<ServiceProcess, Long> pids = new LinkedHashMap<>();
            instances.all().forEach(instance -> pids.put(instance, instance.pid()));
            HealthProbe probe = new HealthProbe();
            AtomicReference<Instant> restoredAt = new AtomicReference<>();
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            Instant cutAt = Instant.now();
            Instant restoreDue = cutAt.plus(options.outageLength());
            proxy.cut();
            log("outage #%d: PostgreSQL cut off for %d s at %.0f%% of the backlog", number, options.outageLength().toSeconds(),
                    at * 100);
            try {
                // the outage ends on time, whatever the probes are waiting for
                timer.schedule(() -> {
                    proxy.restore();
                    restoredAt.set(Instant.now());
                }, options.outageLength().toMillis(), TimeUnit.MILLISECONDS);
                await("outage #" + number).atMost(options.outageLength().plus(Duration.ofSeconds(30)))
                        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500))
                        .until(() -> probe.probe(pids.keySet(), restoreDue, restoredAt));
            } finally {
                timer.shutdown();
                proxy.restore();
            }
            Instant restored = restoredAt.get() != null ? restoredAt.get() : Instant.now();
            double seconds = Duration.between(cutAt, restored).toMillis() / 1000.0;
            // nothing can commit through the cut proxy: any row beyond these was committed after the restore
            long rowsAtRestore = progress();
            boolean recovered;
            try {
                await("recovery after outage #" + number).atMost(RECOVERY_PATIENCE).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> pids.keySet().stream().allMatch(instance -> instance.alive()
                                && instance.status("/actuator/health", Duration.ofSeconds(10)) == 200)
                                && (progress() > rowsAtRestore || progress() >= expectedRows));
                recovered = pids.entrySet().stream().allMatch(entry -> entry.getKey().pid() == entry.getValue());
            } catch (ConditionTimeoutException e) {
                recovered = false;
            }
            double toRecover = secondsSince(restored);
            outages.add(new FaultReport.Outage(number, at, seconds, probe.answers, probe.down, probe.livenessUp, recovered,
                    toRecover));
            log("outage #%d over after %.1f s: health 503 in %d of %d answers, liveness %s; %s", number, seconds, probe.down,
                    probe.answers, probe.livenessUp ? "200 throughout" : "NOT 200",
                    recovered ? String.format(Locale.ROOT, "committing again %.1f s later, same pid", toRecover) : "NOT RECOVERED");
            if (probe.down == 0) {
                faultProblems.add("outage #" + number + ": /actuator/health never answered 503 while PostgreSQL was cut off");
            }
            if (!probe.livenessUp) {
                faultProblems.add("outage #" + number + ": liveness was not 200 during the outage (would get the service restarted)");
            }
            if (!recovered) {
                faultProblems.add("outage #" + number + ": the service did not recover within " + RECOVERY_PATIENCE.toSeconds()
                        + " s without a restart");
                // restart it, so that the rest of the run can still account for every input
                pids.keySet().forEach(instance -> {
                    instance.kill();
                    instance.start();
                    instance.awaitReady(START_PATIENCE);
                });
            }
        }

        /**
         * Waits until every input is taken (the inbox and the input queue are empty, or the Kafka offsets are at the
         * end) and the rows are complete (or have stopped coming).
         */
        boolean awaitDrained(Callable<Boolean> everyInputTaken) {
            Instant[] lastChange = {Instant.now()};
            long[] lastProgress = {-1};
            try {
                await("backlog drained").atMost(options.drainTimeout()).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1))
                        .until(() -> {
                            long rows = progress();
                            if (rows != lastProgress[0]) {
                                lastProgress[0] = rows;
                                lastChange[0] = Instant.now();
                            }
                            boolean settled = rows >= expectedRows || lastChange[0].plus(SETTLED).isBefore(Instant.now());
                            return settled && everyInputTaken.call();
                        });
                return true;
            } catch (ConditionTimeoutException e) {
                return false;
            }
        }

        /** The embedded broker's depth from the service's metrics; the standalone broker's by browsing the queue. */
        boolean inputQueueEmpty(JmsClient jms) throws Exception {
            if (options.topology()) {
                return jms.depth(INPUT_QUEUE) == 0;
            }
            Map<String, Double> metrics = metrics(instances.all().get(0));
            return metrics.getOrDefault("claimguard_inbox_files", -1.0) == 0
                    && metrics.getOrDefault("claimguard_queue_depth{queue=\"" + INPUT_QUEUE + "\"}", -1.0) == 0;
        }
    }

    /** Asks health and liveness during an outage; counts only the answers received before the database came back. */
    private static final class HealthProbe {

        int answers;
        int down;
        boolean livenessUp = true;

        boolean probe(Collection<ServiceProcess> instances, Instant restoreDue, AtomicReference<Instant> restoredAt) {
            for (ServiceProcess service : instances) {
                // a health check waits for a database connection (up to the pool's 5 s); it need not outlast the outage
                Duration untilRestore = Duration.between(Instant.now(), restoreDue).plusSeconds(1);
                Duration timeout = untilRestore.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
                        : untilRestore.compareTo(Duration.ofSeconds(15)) > 0 ? Duration.ofSeconds(15) : untilRestore;
                int health = service.status("/actuator/health", timeout);
                if (restoredAt.get() == null && health != -1) {
                    answers++;
                    if (health == 503) {
                        down++;
                    }
                }
                int liveness = service.status("/actuator/health/liveness", Duration.ofSeconds(5));
                if (restoredAt.get() == null && liveness != 200) {
                    livenessUp = false;
                }
            }
            return restoredAt.get() != null;
        }
    }

    /** The management port's Prometheus metrics, keyed by name and, where there are, the {@code queue} label. */
    private static Map<String, Double> metrics(ServiceProcess service) {
        Map<String, Double> values = new LinkedHashMap<>();
        String text = service.body("/actuator/prometheus", Duration.ofSeconds(10));
        if (text == null) {
            return values;
        }
        Matcher line = METRIC_LINE.matcher(text);
        while (line.find()) {
            String name = line.group(1);
            if (!name.startsWith("claimguard_")) {
                continue;
            }
            String labels = line.group(2) == null ? "" : line.group(2);
            Matcher queue = Pattern.compile("queue=\"([^\"]*)\"").matcher(labels);
            String key = queue.find() ? name + "{queue=\"" + queue.group(1) + "\"}" : name;
            values.put(key, Double.parseDouble(line.group(3)));
        }
        return values;
    }

    private static long jsonFilesIn(Path inbox) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(inbox, "*.json")) {
            long count = 0;
            for (Path ignored : files) {
                count++;
            }
            return count;
        }
    }

    /** The service logs one summary line per input that made no new row: {@code duplicate request_id=...}. */
    private static long duplicatesLogged(Path logs) throws IOException {
        long duplicates = 0;
        try (Stream<Path> all = Files.walk(logs)) {
            for (Path file : all.filter(path -> path.getFileName().toString().matches("service-.*\\.log")).toList()) {
                try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
                    duplicates += lines.filter(line -> line.contains("io.claimguard.audit.summary")
                            && line.contains(" duplicate request_id=")).count();
                }
            }
        }
        return duplicates;
    }

    private FaultReport report(Backlog backlog, long distinctValid, Run run, Accounting.Result accounting,
            long duplicatesAbsorbed, FaultReport.Kafka kafka, List<String> chainCheck, List<String> problems, String machine) {
        Accounting.Outcomes outcomes = accounting.outcomes();
        FaultReport.Inputs inputs = new FaultReport.Inputs(backlog.all().size(), backlog.jms().size(), backlog.files().size(),
                backlog.kafka().size(), backlog.count(Kind.VALID), distinctValid, backlog.identicalPairs(), backlog.count(Kind.REJECTED),
                backlog.count(Kind.POISON), backlog.count(Kind.UNSUPPORTED),
                backlog.all().stream().filter(input -> input.body() == HarnessInput.Body.UNDECODABLE_TEXT).count());
        double secondsCut = run.outages.stream().mapToDouble(FaultReport.Outage::seconds).sum();
        FaultReport.Faults faults = new FaultReport.Faults(options.instances(), run.kills.size(), run.kills,
                run.outages.size(), secondsCut, run.outages, run.brokerRestarts, run.added);
        boolean healthDown = !run.outages.isEmpty() && run.outages.stream().allMatch(outage -> outage.healthDown() > 0);
        boolean passed = problems.isEmpty() && outcomes.lost() == 0 && outcomes.duplicatedAuditRows() == 0
                && (options.outages() == 0 || healthDown)
                && run.kills.size() == options.kills() && run.outages.size() == options.outages()
                && run.brokerRestarts.size() == options.brokerRestarts()
                && run.brokerRestarts.stream().allMatch(restart -> restart.recoveredWithoutRestart()
                        && (restart.readinessDown() || options.kafka()))
                && run.added.size() == options.addedInstances()
                && (kafka == null || kafka.committedToEnd());
        List<String> listed = problems.stream().limit(FaultReport.LISTED_PROBLEMS).toList();
        return new FaultReport(options.size(), options.seed(), started.toString(), secondsSince(started), machine, inputs,
                faults, outcomes, duplicatesAbsorbed, healthDown, kafka, chainCheck, passed, listed);
    }

    /**
     * After the run, as an auditor would: {@code verify-chain --full} against every instance's checkpoints, which must hold;
     * and the newest checkpoint, written when the last instance stopped, must cover every seal.
     */
    private static List<String> verifyChain(TestDatabase database, List<Path> checkpointDirectories, Path publicKey,
            Connection sql, List<String> problems) throws SQLException {
        List<String> args = new ArrayList<>(List.of("verify-chain", "--db-url", database.jdbcUrl(), "--db-user",
                database.username(), "--db-password", database.password(), "--public-key", publicKey.toString(),
                "--full"));
        checkpointDirectories.forEach(directory -> args.addAll(List.of("--checkpoints", directory.toString())));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = ClaimGuardCli.execute(args.toArray(String[]::new), new PrintWriter(out, true, StandardCharsets.UTF_8),
                new PrintWriter(err, true, StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>(out.toString(StandardCharsets.UTF_8).lines().toList());
        lines.addAll(err.toString(StandardCharsets.UTF_8).lines().toList());
        if (exitCode != 0) {
            problems.add("verify-chain with the checkpoints exited " + exitCode + ": " + String.join("; ", lines));
        }
        long seals = Accounting.countRows(sql, "SELECT count(*) FROM claimguard.audit_seal");
        String covered = "the newest checkpoint must cover all " + seals + " seals";
        if (lines.stream().noneMatch(line -> line.startsWith("checkpoints intact:") && line.contains(" the newest size " + seals + ","))) {
            problems.add("the newest checkpoint does not cover all " + seals + " seals: the last instance to stop did not sign"
                    + " its final head");
        }
        lines.add("exit " + exitCode + "; " + covered);
        return lines;
    }

    static String machine(Connection sql) throws SQLException {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version") + ", PostgreSQL "
                + sql.getMetaData().getDatabaseProductVersion();
    }

    static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static double secondsSince(Instant instant) {
        return Duration.between(instant, Instant.now()).toMillis() / 1000.0;
    }

    private void log(String format, Object... arguments) {
        System.out.printf(Locale.ROOT, "[%6.1f s] %s%n", secondsSince(started), String.format(Locale.ROOT, format, arguments));
    }
}
