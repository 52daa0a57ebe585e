package io.claimguard.harness.faults;

import static org.awaitility.Awaitility.await;

import io.claimguard.broker.CredentialsFile;
import io.claimguard.harness.faults.HostileInputs.Channel;
import io.claimguard.harness.faults.HostileInputs.Expect;
import io.claimguard.harness.faults.HostileInputs.HostileInput;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The fault harness's hostile mode ({@code --hostile}): the service jar fed thousands of hostile inputs, files and JMS
 * messages mixed ({@link HostileInputs}), killed with SIGKILL while they drain, then every input accounted for
 * ({@link HostileAccounting}): audited or dead-lettered exactly once, every file ended once in {@code .done/} or
 * {@code .error/} (or left alone by the documented rule), links and FIFOs set aside unopened, no result forwarded
 * twice for one file, and the service's log lines per minute under the bound. Exits 0 only if all of that holds.
 */
final class HostileRun {

    private static final String INPUT_QUEUE = "verifier.results";
    private static final String OUTPUT_QUEUE = "verifier.effective";
    private static final String DEAD_LETTER_QUEUE = "verifier.results.DLQ";
    private static final Duration START_PATIENCE = Duration.ofMinutes(3);
    /** The drain ends when every input is taken and no row has been committed for this long. */
    private static final Duration SETTLED = Duration.ofSeconds(20);
    /** Files written per shell script: every name is made by {@code mv}, {@code ln -s} or {@code mkfifo} from its bytes. */
    private static final int FILES_PER_SCRIPT = 100;
    private static final Pattern INPUT_QUEUE_DEPTH = Pattern.compile(
            "^claimguard_queue_depth\\{[^}]*queue=\"" + Pattern.quote(INPUT_QUEUE) + "\"[^}]*}\\s+(\\S+)$", Pattern.MULTILINE);

    private final HostileOptions options;
    private final Random random;
    private final Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private HostileRun(HostileOptions options) {
        this.options = options;
        this.random = new Random(options.seed());
    }

    static int run(HostileOptions options) throws Exception {
        return new HostileRun(options).run();
    }

    private int run() throws Exception {
        Path work = Files.createTempDirectory("claimguard-hostile-");
        Path inbox = Files.createDirectories(work.resolve("inbox"));
        Path outbox = Files.createDirectories(work.resolve("outbox"));
        Path logs = Files.createDirectories(work.resolve("logs"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        log("%s run: %,d inputs, %d kill(s), seed %d, work in %s", options.size(), options.inputs(), options.kills(),
                options.seed(), work);
        HostileInputs inputs = HostileInputs.generate(options.inputs(), options.seed(), Path.of("examples"), outside);
        long expectedRows = expectedRows(inputs);
        log("generated: %,d files (%,d names, %d late copies), %,d JMS messages; %,d rows expected", inputs.files(),
                inputs.inputs().stream().filter(input -> input.channel() == Channel.FILE).count(), inputs.lateCopies().size(),
                inputs.inputs().stream().filter(input -> input.channel() == Channel.JMS).count(), expectedRows);

        TestDatabase database = TestDatabase.createSeparate();
        int brokerPort = FreePort.onLoopback();
        ServiceProcess service = service(database, inbox, outbox, work, logs, brokerPort);
        Runtime.getRuntime().addShutdownHook(new Thread(service::close, "hostile-run-cleanup"));
        try (Connection sql = database.connect()) {
            service.start();
            service.awaitReady(START_PATIENCE);
            log("service up, pid %d, database %s", service.pid(), database.databaseName());
            JmsClient jms = new JmsClient("tcp://127.0.0.1:" + brokerPort,
                    CredentialsFile.read(work.resolve("artemis").resolve("credentials.properties")));

            List<HostileAccounting.Kill> kills = new ArrayList<>();
            Map<String, String> messageIds;
            ExecutorService feeder = Executors.newSingleThreadExecutor();
            try {
                // files and messages at once; the embedded broker dies with the service, so every message is sent
                // before the first kill, while files keep coming
                Future<?> files = feeder.submit(() -> {
                    writeFiles(inputs.inputs().stream().filter(input -> input.channel() == Channel.FILE).toList(), inbox);
                    return null;
                });
                messageIds = jms.send(INPUT_QUEUE, inputs.inputs().stream().filter(input -> input.channel() == Channel.JMS)
                        .map(HostileInput::asJms).toList());
                for (int kill = 0; kill < options.kills(); kill++) {
                    double at = 0.2 + 0.6 * (kill + random.nextDouble()) / options.kills();
                    awaitRows(sql, service, (long) Math.ceil(at * expectedRows));
                    kills.add(kill(service, sql, inbox, kill + 1, expectedRows));
                }
                files.get(10, TimeUnit.MINUTES);
            } finally {
                feeder.shutdownNow();
            }
            long ignored = inputs.count(Expect.IGNORED);
            boolean drained = awaitDrained(sql, service, inbox, ignored, expectedRows);
            log("first round %s: %,d of %,d rows; dropping %d late copies of long-named files", drained ? "drained"
                    : "NOT drained", rows(sql), expectedRows, inputs.lateCopies().size());
            writeFiles(inputs.lateCopies(), inbox);
            drained &= awaitDrained(sql, service, inbox, ignored, expectedRows);
            log("backlog %s: %,d of %,d rows; reading the output and dead-letter queues", drained ? "drained"
                    : "NOT drained", rows(sql), expectedRows);

            int limit = options.inputs() * 3 + 1_000;
            List<JmsClient.Received> outputs = jms.drain(OUTPUT_QUEUE, Duration.ofSeconds(3), limit, Duration.ofMinutes(10));
            List<JmsClient.Received> deadLetterCopies = jms.browse(DEAD_LETTER_QUEUE, limit);
            service.stop();
            log("service stopped; %,d results, %,d dead-letter copies", outputs.size(), deadLetterCopies.size());

            HostileAccounting.Result result = HostileAccounting.account(inputs, sql, outputs, deadLetterCopies, inbox,
                    outbox, messageIds, kills, logs, options.logAllowance());
            List<String> problems = new ArrayList<>();
            if (!drained) {
                problems.add("the inputs did not drain within " + options.drainTimeout().toSeconds() + " s");
            }
            problems.addAll(result.problems());
            HostileReport report = new HostileReport(options.size(), options.seed(), started.toString(),
                    Duration.between(started, Instant.now()).toMillis() / 1000.0, FaultHarness.machine(sql),
                    HostileReport.Inputs.of(inputs),
                    HostileReport.Kill.of(kills), result.outcomes(), result.logs(), problems.isEmpty(),
                    problems.stream().limit(HostileReport.LISTED_PROBLEMS).toList(), problems.size());
            System.out.println();
            System.out.print(report.table());
            if (!problems.isEmpty()) {
                System.out.println("\nproblems (" + problems.size() + "):");
                problems.stream().limit(HostileReport.LISTED_PROBLEMS).forEach(problem -> System.out.println("  " + problem));
            }
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started);
            Path written = report.write(options.resultsDir(), stamp);
            log("results written to %s (and .md)", written);
            if (report.passed() && !options.keepWork()) {
                FaultHarness.deleteRecursively(work);
            } else {
                log("work folder kept for inspection: %s (service logs in %s)", work, logs);
            }
            return report.passed() ? 0 : 1;
        } finally {
            service.close();
        }
    }

    /** One row per distinct body that is neither ignored nor an entry the service must not open, one per such entry. */
    private static long expectedRows(HostileInputs inputs) {
        Set<String> bodies = new HashSet<>();
        long setAside = 0;
        for (HostileInput input : inputs.inputs()) {
            if (input.expect() == Expect.SET_ASIDE) {
                setAside++;
            } else if (input.expect() != Expect.IGNORED) {
                bodies.add(input.sha256());
            }
        }
        return bodies.size() + setAside;
    }

    private ServiceProcess service(TestDatabase database, Path inbox, Path outbox, Path work, Path logs, int brokerPort)
            throws IOException {
        int managementPort = FreePort.onLoopback();
        while (managementPort == brokerPort) {
            managementPort = FreePort.onLoopback();
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.putAll(database.serviceProperties());
        properties.put("claimguard.management.port", Integer.toString(managementPort));
        properties.put("claimguard.file.inbox", inbox.toString());
        properties.put("claimguard.file.outbox", outbox.toString());
        properties.put("claimguard.instance-id", "hostile");
        properties.put("claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + brokerPort);
        // the same journal on every start, so that the queues survive SIGKILL; the logins the first start generates
        properties.put("claimguard.broker.data-directory", Files.createDirectories(work.resolve("artemis")).toString());
        properties.put("claimguard.result-signing.generated-key", work.resolve("keys/result-signing.key").toString());
        return new ServiceProcess(options.jar(), ServiceProcess.DEFAULT_JVM_OPTIONS, properties, logs, managementPort);
    }

    /**
     * Writes each file beside the inbox and moves it in under its name (a rename, as writers must), makes each link
     * and FIFO, in order. Java on Linux cannot make a name that is not UTF-8, nor a FIFO: a shell script does it, from
     * each name's bytes in octal escapes, for a slice of files at a time.
     */
    private static void writeFiles(List<HostileInput> files, Path inbox) throws IOException, InterruptedException {
        Path staging = Files.createDirectories(inbox.resolveSibling("staging"));
        for (int from = 0; from < files.size(); from += FILES_PER_SCRIPT) {
            StringBuilder script = new StringBuilder("set -e\n");
            for (HostileInput file : files.subList(from, Math.min(files.size(), from + FILES_PER_SCRIPT))) {
                // the command substitution would drop trailing line breaks: an x ends it, and is cut off
                script.append("n=\"$(printf '").append(octal(file.name())).append("'; echo x)\"; n=\"${n%x}\"\n");
                switch (file.entry()) {
                    case REGULAR -> {
                        Path written = Files.write(staging.resolve(file.tag()), file.body());
                        script.append("mv -- '").append(written).append("' \"$n\"\n");
                    }
                    case SYMLINK -> {
                        Files.writeString(file.outsideTarget(), secret(file), StandardCharsets.UTF_8);
                        script.append("ln -s -- '").append(file.outsideTarget()).append("' \"$n\"\n");
                    }
                    case FIFO -> script.append("mkfifo -- \"$n\"\n");
                }
            }
            Process shell = new ProcessBuilder("/bin/sh", "-c", script.toString()).directory(inbox.toFile())
                    .redirectErrorStream(true).start();
            String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (shell.waitFor() != 0) {
                throw new IllegalStateException("cannot write inbox files " + from + " and after: " + output);
            }
        }
    }

    /** What a link points to: text that must never turn up in a dead_letter row or anywhere the service writes. */
    static String secret(HostileInput link) {
        return "{\"request_id\": \"" + secretRequestId(link) + "\", \"verifier_output\": {}}";
    }

    static String secretRequestId(HostileInput link) {
        return "outside-secret-" + link.number();
    }

    private static String octal(byte[] name) {
        StringBuilder octal = new StringBuilder();
        for (byte b : name) {
            octal.append(String.format(Locale.ROOT, "\\%03o", b & 0xff));
        }
        return octal.toString();
    }

    /**
     * SIGKILL, then what the kill left: the audit rows committed and the inbox's entries (nothing moves while the
     * service is dead), by which a result forwarded again after the restart is told from one forwarded twice by a retry.
     */
    private HostileAccounting.Kill kill(ServiceProcess service, Connection sql, Path inbox, int number, long expectedRows)
            throws SQLException, IOException {
        long rows = rows(sql);
        long killedPid = service.pid();
        Instant killedAt = Instant.now();
        service.kill();
        Set<Long> auditIds = new HashSet<>(HostileAccounting.auditIds(sql));
        Set<String> inboxNames = new HashSet<>(HostileAccounting.inboxEntries(inbox));
        log("kill -9 #%d: pid %d at %.0f%% of the rows, %,d entries in the inbox", number, killedPid,
                100.0 * rows / expectedRows, inboxNames.size());
        service.start();
        service.awaitReady(START_PATIENCE);
        double seconds = Duration.between(killedAt, Instant.now()).toMillis() / 1000.0;
        log("restarted as pid %d, ready %.1f s after the kill", service.pid(), seconds);
        return new HostileAccounting.Kill(number, (double) rows / expectedRows, killedPid, service.pid(), seconds, auditIds,
                inboxNames);
    }

    private void awaitRows(Connection sql, ServiceProcess service, long target) {
        try {
            await("rows at " + target).atMost(Duration.ofMinutes(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        if (!service.alive()) {
                            throw new IllegalStateException("the service died on its own; last lines of "
                                    + service.currentLog() + ":\n" + service.logTail(40));
                        }
                        return rows(sql) >= target;
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the inputs are stuck at " + rows(sql) + " rows; the kill planned at " + target
                    + " rows was never reached", e);
        }
    }

    /**
     * Until only the entries the service leaves alone are in the inbox, the input queue is empty and the rows are
     * complete or have stopped coming.
     */
    private boolean awaitDrained(Connection sql, ServiceProcess service, Path inbox, long ignored, long expectedRows) {
        Instant[] lastChange = {Instant.now()};
        long[] lastRows = {-1};
        try {
            await("inputs drained").atMost(options.drainTimeout()).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        long rows = rows(sql);
                        if (rows != lastRows[0]) {
                            lastRows[0] = rows;
                            lastChange[0] = Instant.now();
                        }
                        boolean settled = rows >= expectedRows || lastChange[0].plus(SETTLED).isBefore(Instant.now());
                        return settled && HostileAccounting.inboxEntries(inbox).size() <= ignored
                                && inputQueueDepth(service) == 0;
                    });
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    private static double inputQueueDepth(ServiceProcess service) {
        String metrics = service.body("/actuator/prometheus", Duration.ofSeconds(10));
        Matcher depth = metrics == null ? null : INPUT_QUEUE_DEPTH.matcher(metrics);
        return depth != null && depth.find() ? Double.parseDouble(depth.group(1)) : -1;
    }

    private static long rows(Connection sql) {
        try {
            return Accounting.countRows(sql, "SELECT (SELECT count(*) FROM claimguard.verification_audit)"
                    + " + (SELECT count(*) FROM claimguard.dead_letter)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count the rows in the harness's database", e);
        }
    }

    private void log(String format, Object... arguments) {
        System.out.printf(Locale.ROOT, "[%6.1f s] %s%n", Duration.between(started, Instant.now()).toMillis() / 1000.0,
                String.format(Locale.ROOT, format, arguments));
    }
}
