package io.claimguard.harness.growth;

import io.claimguard.status.StatusReader;
import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.ExplorerClient;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestBrokerUsers;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What every operation an operator or analyst runs costs as the audit tables grow: a database of its own grown to each
 * size by SQL copies of real rows (the examples' envelopes audited by the service jar, with their claim checks and
 * findings; 5 % dead letters; received over the last 365 days), sealed by the service's own sealer (its catch-up
 * timed at several points of the backlog), VACUUM ANALYZE after each fill; then status, verify-chain (incremental and
 * full, with peak memory), prove, verify-receipt, the explorer's overview and list filters (HTTP with a login), each
 * analyst view for one day and for all time, and the size on disk per relation and per audit. Prints a table
 * (operation x size, with the trend) and writes it to bench/results/growth-TIMESTAMP.md and .json.
 *
 * <p>{@code ./mvnw -B -Pgrowth -DskipTests package [-Dgrowth.args="--sizes 100000,1000000"]}
 */
public final class GrowthHarness {

    static final String USAGE = """
            usage: GrowthHarness [--sizes N,N,...] [--jar JAR] [--results DIR] [--keep-database]
              defaults: --sizes 100000,1000000 --results bench/results
              --keep-database: keep a copy of the grown database (its name is printed) to look at its plans and sizes
            """;
    private static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final int FILL_CHUNK = 100_000;
    private static final double DEAD_LETTER_SHARE = 0.05;
    private static final long DAY_OF_ROWS = 86_400;
    private static final Pattern VERIFIED_AFTER = Pattern.compile("(\\d+) seals verified after it");
    private static final String JMS_ROUTE = "jms-intake";
    private static final String INPUT_QUEUE = "verifier.results";
    private static final int DRAIN_WARM_UP = 5_000;
    private static final int DRAIN_TIMED = 20_000;
    private static final Pattern REQUEST_ID = Pattern.compile("\"request_id\"\\s*:\\s*\"[^\"]*\"");
    private static final Pattern SEALED_ROWS = Pattern.compile("audit chain intact: (\\d+) rows sealed");

    private final Path jar;
    private final TestDatabase database;
    private final Path work;
    private final Path checkpoints;
    private final Path key;
    private final Results results = new Results();

    private GrowthHarness(Path jar, TestDatabase database, Path work) {
        this.jar = jar;
        this.database = database;
        this.work = work;
        this.checkpoints = work.resolve("checkpoints");
        this.key = work.resolve("checkpoint.key");
    }

    public static void main(String[] args) throws Exception {
        List<Long> sizes = List.of(100_000L, 1_000_000L);
        Path jar = null;
        Path resultsDirectory = Path.of("bench/results");
        boolean keepDatabase = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> sizes = Stream.of(args[++i].split(",")).map(String::trim).map(Long::parseLong).toList();
                case "--jar" -> jar = Path.of(args[++i]);
                case "--results" -> resultsDirectory = Path.of(args[++i]);
                case "--keep-database" -> keepDatabase = true;
                default -> {
                    System.err.print(USAGE);
                    System.exit(2);
                }
            }
        }
        Path work = Files.createTempDirectory("claimguard-growth-");
        TestDatabase database = TestDatabase.createSeparate();
        try {
            GrowthHarness harness = new GrowthHarness(jar != null ? jar : ServiceProcess.findJar(), database, work);
            harness.run(sizes, resultsDirectory);
        } finally {
            if (keepDatabase) {
                keepCopy(database);
            }
            database.drop();
        }
    }

    /** A copy of the grown database under a name of its own: the test database itself is dropped at exit. */
    private static void keepCopy(TestDatabase database) throws SQLException {
        String copy = "claimguard_growth_" + timestamp().toLowerCase(Locale.ROOT);
        try (Connection admin = DriverManager.getConnection(
                "jdbc:postgresql://" + database.host() + ":" + database.port() + "/postgres", database.username(),
                database.password()); Statement statement = admin.createStatement()) {
            // identifiers only, no input: CREATE DATABASE takes no bind parameter
            statement.execute("CREATE DATABASE " + copy + " TEMPLATE " + database.databaseName());
        }
        System.out.println("kept: database " + copy + " (drop it with DROP DATABASE when done)");
    }

    private void run(List<Long> sizes, Path resultsDirectory) throws Exception {
        cli(List.of(), "keygen", "--out", key.toString());
        Files.createDirectories(checkpoints);
        Path inbox = Files.createDirectories(work.resolve("inbox"));
        try (Service service = startService(inbox)) {
            List<Path> examples;
            try (Stream<Path> files = Files.list(Path.of("examples"))) {
                examples = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
            }
            for (Path example : examples) {
                drop(inbox, example.getFileName().toString(), Files.readAllBytes(example));
            }
            drop(inbox, "not-json.json", "this is not JSON".getBytes(StandardCharsets.US_ASCII));
            awaitCount("SELECT count(*) FROM claimguard.verification_audit", examples.size() - 1);
            awaitCount("SELECT count(*) FROM claimguard.dead_letter", 1);
            System.out.printf(Locale.ROOT, "templates: %d audited rows and %d dead letters from examples/%n",
                    count("SELECT count(*) FROM claimguard.verification_audit"),
                    count("SELECT count(*) FROM claimguard.dead_letter"));
        }
        Templates templates = Templates.snapshot(database);
        String stamp = timestamp();
        for (long size : sizes) {
            measure(size, inbox, templates);
            // after each size, so that a long run keeps what it measured
            results.write(resultsDirectory, sizes, stamp);
        }
    }

    /**
     * Grows the database to {@code size}: all but the last day of rows with the service stopped (its sealer's catch-up
     * on that backlog timed), then the last day of rows while it runs, each followed by a checkpoint of the head, so
     * that an incremental verify-chain has a day of rows after the checkpoint it trusts.
     */
    private void measure(long size, Path inbox, Templates templates) throws Exception {
        System.out.printf(Locale.ROOT, "%n== %,d audits ==%n", size);
        long have = count("SELECT count(*) FROM claimguard.verification_audit");
        long day = Math.min(DAY_OF_ROWS, Math.max(0, size - have) / 2);
        long started = System.nanoTime();
        templates.fill(database, have, size - have - day, FILL_CHUNK, DEAD_LETTER_SHARE);
        results.put("fill but the last day (SQL copies, VACUUM ANALYZE)", size, seconds(started), "s");
        long backlog = count("SELECT count(*) FROM claimguard.verification_audit")
                - count("SELECT count(*) FROM claimguard.audit_seal");
        try (Service service = startService(inbox)) {
            catchUp(size, backlog);
            awaitCheckpointOfTheHead();
            long trusted = newestTreeSize();
            templates.fill(database, size - day, day, FILL_CHUNK, DEAD_LETTER_SHARE);
            awaitCount("SELECT count(*) FROM claimguard.audit_seal", size);
            awaitCheckpointOfTheHead();
            compactRollups(size);
            vacuumAnalyze();
            timeStatus(size);
            timeVerifyChain(size, trusted);
            timeProve(size);
            timeExplorer(size, service.managementPort());
        }
        timeAnalystViews(size);
        sizeOnDisk(size);
        // last: the drained rows join the database after everything else at this size was measured
        timeJmsDrains(size, inbox);
    }

    /**
     * What the service does every claimguard.rollups.compaction-interval (it compacted all time at its start, before the
     * last day was written): the last two days' rollup deltas merged, so that the explorer and the views are timed on
     * the rollups a running service keeps.
     */
    private void compactRollups(long size) throws SQLException {
        long started = System.nanoTime();
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT claimguard.compact_rollups(date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '2 days')");
        }
        results.put("rollup compaction, last two days", size, seconds(started), "s");
    }

    // ---- the service

    private record Service(ServiceProcess process, int managementPort) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    private Service startService(Path inbox) throws IOException {
        return startService(database, inbox, "tcp://127.0.0.1:" + FreePort.onLoopback(), Map.of());
    }

    /** @param extra properties of this start only, applied last */
    private Service startService(TestDatabase into, Path inbox, String brokerUrl, Map<String, String> extra)
            throws IOException {
        int managementPort = FreePort.onLoopback();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", into.jdbcUrl());
        properties.put("spring.datasource.username", into.username());
        properties.put("spring.datasource.password", into.password());
        properties.put("claimguard.management.port", Integer.toString(managementPort));
        properties.put("claimguard.broker.acceptor-url", brokerUrl);
        properties.put("claimguard.broker.data-directory", work.resolve("artemis-" + into.databaseName()).toString());
        properties.putAll(TestBrokerUsers.serviceProperties());
        properties.put("claimguard.file.inbox", inbox.toString());
        properties.put("claimguard.file.outbox", work.resolve("outbox").toString());
        properties.put("claimguard.explorer.enabled", "true");
        properties.put("claimguard.checkpoint.private-key", key.toString());
        properties.put("claimguard.checkpoint.directory", checkpoints.toString());
        properties.put("claimguard.checkpoint.period", "5s");
        properties.putAll(extra);
        ServiceProcess process = new ServiceProcess(jar, ServiceProcess.MEASURED_JVM_OPTIONS, properties,
                Files.createDirectories(work.resolve("logs")), managementPort);
        process.start();
        process.awaitReady(PATIENCE);
        return new Service(process, managementPort);
    }

    private static void drop(Path inbox, String name, byte[] content) throws IOException {
        Path temporary = inbox.resolve("." + name + ".tmp");
        Files.write(temporary, content);
        Files.move(temporary, inbox.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    // ---- the sealer's catch-up

    /** Seals counted every second until the backlog is sealed: the rate over each tenth of it. */
    private void catchUp(long size, long backlog) throws Exception {
        long target = count("SELECT count(*) FROM claimguard.verification_audit");
        long start = System.nanoTime();
        long startSealed = count("SELECT count(*) FROM claimguard.audit_seal");
        List<long[]> samples = new ArrayList<>();
        samples.add(new long[] {0, startSealed});
        long sealed = startSealed;
        while (sealed < target) {
            if (System.nanoTime() - start > Duration.ofHours(2).toNanos()) {
                throw new IllegalStateException("the sealer did not catch up in 2 hours: " + sealed + " of " + target);
            }
            Thread.sleep(1000);
            sealed = count("SELECT count(*) FROM claimguard.audit_seal");
            samples.add(new long[] {System.nanoTime() - start, sealed});
        }
        double total = (samples.get(samples.size() - 1)[0]) / 1e9;
        System.out.printf(Locale.ROOT, "sealer catch-up: %,d rows in %.1f s (%,.0f rows/s overall)%n", backlog, total,
                backlog / total);
        results.put("sealer catch-up, overall", size, backlog / total, "rows/s");
        for (double at : new double[] {0.1, 0.5, 0.9}) {
            double rate = rateAround(samples, startSealed + (long) (backlog * at), backlog / 5);
            System.out.printf(Locale.ROOT, "  at %.0f %% of the backlog: %,.0f rows/s%n", at * 100, rate);
            results.put("sealer catch-up at %.0f %% of the backlog".formatted(at * 100), size, rate, "rows/s");
        }
    }

    /** Rows per second over the samples from {@code around - span/2} to {@code around + span/2} sealed. */
    private static double rateAround(List<long[]> samples, long around, long span) {
        long[] from = samples.get(0);
        long[] to = samples.get(samples.size() - 1);
        for (long[] sample : samples) {
            if (sample[1] <= around - span / 2) {
                from = sample;
            }
        }
        for (int i = samples.size() - 1; i >= 0; i--) {
            if (samples.get(i)[1] >= around + span / 2) {
                to = samples.get(i);
            }
        }
        double seconds = (to[0] - from[0]) / 1e9;
        return seconds <= 0 ? Double.NaN : (to[1] - from[1]) / seconds;
    }

    /** Waits until the service signed a checkpoint of the whole chain as it is now (the head moved, so it will). */
    private void awaitCheckpointOfTheHead() throws Exception {
        long seals = count("SELECT count(*) FROM claimguard.audit_seal");
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (newestTreeSize() < seals) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no checkpoint of the head's " + seals + " seals was signed");
            }
            Thread.sleep(500);
        }
    }

    private List<String> checkpointLines() throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(checkpoints)) {
            for (Path file : files.sorted().toList()) {
                Files.readAllLines(file).stream().filter(line -> !line.isBlank()).forEach(lines::add);
            }
        }
        return lines;
    }

    /** A checkpoint line: {@code v1 ORIGIN TREE-SIZE ...}. */
    private static long treeSize(String line) {
        return Long.parseLong(line.split(" ")[2]);
    }

    private long newestTreeSize() throws IOException {
        return checkpointLines().stream().mapToLong(GrowthHarness::treeSize).max().orElse(0);
    }

    /** A directory with two of the service's checkpoints: the one of this size, and the newest. */
    private Path checkpointsFrom(long trustedSize) throws IOException {
        List<String> lines = checkpointLines();
        String newest = lines.stream().max(Comparator.comparingLong(GrowthHarness::treeSize)).orElseThrow();
        String older = lines.stream().filter(line -> treeSize(line) == trustedSize).findFirst().orElseThrow();
        Path directory = Files.createDirectories(work.resolve("checkpoints-from-" + trustedSize));
        try (Stream<Path> files = Files.list(checkpoints)) {
            String name = files.findFirst().orElseThrow().getFileName().toString();
            Files.writeString(directory.resolve(name), older + "\n" + newest + "\n");
        }
        return directory;
    }

    // ---- the command line

    private void timeStatus(long size) throws Exception {
        // the database's part, as the command line and the endpoint read it
        long started = System.nanoTime();
        try (Connection connection = database.connect()) {
            StatusReader.read(connection);
        }
        double queries = seconds(started);
        Run run = cli(List.of(), "status", "--json", "--inbox", work.resolve("inbox").toString(),
                "--db-url", database.jdbcUrl(), "--db-user", database.username(), "--db-password", database.password(),
                "--broker", "tcp://127.0.0.1:" + FreePort.onLoopback());
        System.out.printf(Locale.ROOT, "status: its queries %.3f s; the command %.2f s (exit %d)%n", queries, run.seconds(),
                run.exitCode());
        results.put("status: its queries", size, queries, "s");
        results.put("status: the command (JVM start included)", size, run.seconds(), "s");
    }

    /** @param trusted the size of the checkpoint a day of rows before the head */
    private void timeVerifyChain(long size, long trusted) throws Exception {
        List<String> checkpointOptions = List.of("--checkpoints", checkpoints.toString(), "--public-key", key + ".pub");
        // a day of new rows at one input per second after the checkpoint it trusts
        Run incremental = cli(List.of(), "verify-chain", "--db-url", database.jdbcUrl(), "--db-user",
                database.username(), "--db-password", database.password(), "--checkpoints",
                checkpointsFrom(trusted).toString(), "--public-key", key + ".pub");
        Matcher after = VERIFIED_AFTER.matcher(incremental.out());
        long seals = after.find() ? Long.parseLong(after.group(1)) : -1;
        System.out.printf(Locale.ROOT, "verify-chain incremental: %.2f s for %,d seals after the trusted checkpoint,"
                + " peak RSS %,d MB (exit %d)%n", incremental.seconds(), seals, incremental.peakRssMb(),
                incremental.exitCode());
        results.put("verify-chain incremental: time", size, incremental.seconds(), "s");
        results.put("verify-chain incremental: seals verified", size, seals, "seals");
        results.put("verify-chain incremental: peak RSS", size, incremental.peakRssMb(), "MB");

        Run full = cli(List.of("-Xmx200m"), concat(List.of("verify-chain", "--full", "--db-url", database.jdbcUrl(),
                "--db-user", database.username(), "--db-password", database.password()), checkpointOptions));
        Matcher sealed = SEALED_ROWS.matcher(full.out());
        long all = sealed.find() ? Long.parseLong(sealed.group(1)) : -1;
        System.out.printf(Locale.ROOT, "verify-chain --full (-Xmx200m): %.1f s for %,d seals (%,.0f seals/s), peak RSS"
                + " %,d MB (exit %d)%n", full.seconds(), all, all / full.seconds(), full.peakRssMb(), full.exitCode());
        results.put("verify-chain --full: time", size, full.seconds(), "s");
        results.put("verify-chain --full: rate", size, all / full.seconds(), "seals/s");
        results.put("verify-chain --full: peak RSS (-Xmx200m)", size, full.peakRssMb(), "MB");
        if (incremental.exitCode() != 0 || full.exitCode() != 0) {
            throw new IllegalStateException("verify-chain did not pass:\n" + incremental + "\n" + full);
        }
    }

    private void timeProve(long size) throws Exception {
        long auditId = count("SELECT audit_id FROM claimguard.audit_seal WHERE seq = (SELECT min(seq) + 7 FROM"
                + " claimguard.audit_seal)");
        Path receipt = work.resolve("receipt-" + size + ".json");
        Run prove = cli(List.of(), "prove", "--audit-id", Long.toString(auditId), "--checkpoints", checkpoints.toString(),
                "--out", receipt.toString(), "--db-url", database.jdbcUrl(), "--db-user", database.username(),
                "--db-password", database.password());
        Run verify = cli(List.of(), "verify-receipt", receipt.toString(), "--public-key", key + ".pub");
        System.out.printf(Locale.ROOT, "prove: %.2f s (exit %d); verify-receipt: %.2f s (exit %d)%n", prove.seconds(),
                prove.exitCode(), verify.seconds(), verify.exitCode());
        results.put("prove (JVM start included)", size, prove.seconds(), "s");
        results.put("verify-receipt (JVM start included)", size, verify.seconds(), "s");
        Run help = cli(List.of(), "--version");
        results.put("the command line's own start (--version)", size, help.seconds(), "s");
        if (prove.exitCode() != 0 || verify.exitCode() != 0) {
            throw new IllegalStateException("prove or verify-receipt failed:\n" + prove + "\n" + verify);
        }
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private record Run(int exitCode, double seconds, long peakRssMb, String out) {
    }

    private Run cli(List<String> jvmOptions, String... args) throws Exception {
        return cli(jvmOptions, List.of(args));
    }

    /** The jar's command line under /usr/bin/time, for its peak resident memory. */
    private Run cli(List<String> jvmOptions, List<String> args) throws Exception {
        Path timeFile = work.resolve("time.txt");
        List<String> command = new ArrayList<>(List.of("/usr/bin/time", "-f", "%M", "-o", timeFile.toString(), "java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        Path output = work.resolve("cli.out");
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        int exit = process.waitFor();
        double took = seconds(started);
        String time = Files.readString(timeFile).trim();
        long peakKb = Long.parseLong(time.substring(time.lastIndexOf('\n') + 1).trim());
        return new Run(exit, took, peakKb / 1024, Files.readString(output));
    }

    // ---- the explorer

    private void timeExplorer(long size, int managementPort) {
        ExplorerClient explorer = ExplorerClient.logIn(managementPort);
        String day = LocalDate.now(ZoneOffset.UTC).minusDays(100).toString();
        String nextDay = LocalDate.now(ZoneOffset.UTC).minusDays(99).toString();
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("explorer overview", "/explorer");
        pages.put("explorer overview, last 7 days", "/explorer?period=week");
        pages.put("explorer overview, last 30 days", "/explorer?period=30d");
        pages.put("explorer list, newest", "/explorer/audits");
        pages.put("explorer list, verdict=REJECT", "/explorer/audits?verdict=REJECT");
        pages.put("explorer list, downgraded=true", "/explorer/audits?downgraded=true");
        pages.put("explorer list, reason=gatekeeper.fail", "/explorer/audits?reason=gatekeeper.fail");
        pages.put("explorer list, source=jms", "/explorer/audits?source=jms");
        pages.put("explorer list, one day", "/explorer/audits?from=" + day + "T00:00:00Z&to=" + nextDay + "T00:00:00Z");
        pages.put("explorer find by request id", "/explorer/find?q=growth-" + (size / 2));
        pages.put("explorer dead letters", "/explorer/dead-letters");
        for (Map.Entry<String, String> page : pages.entrySet()) {
            explorer.get(page.getValue());
            List<Double> millis = new ArrayList<>();
            int status = 0;
            for (int i = 0; i < 3; i++) {
                ExplorerClient.Page answer = explorer.get(page.getValue());
                status = answer.status();
                millis.add(answer.took().toNanos() / 1e6);
            }
            millis.sort(Double::compare);
            System.out.printf(Locale.ROOT, "%-40s %s: %.0f ms (status %d)%n", page.getKey(), page.getValue(),
                    millis.get(1), status);
            results.put(page.getKey(), size, millis.get(1), "ms");
        }
    }

    // ---- the write rate

    /**
     * The JMS drain into the grown database beside one into an empty database, back to back so that both meet the
     * same machine: each a service of its own with its JMS route held back until the queue holds the inputs, a
     * warm-up drained first, then the timed inputs.
     */
    private void timeJmsDrains(long size, Path inbox) throws Exception {
        double empty;
        TestDatabase emptyDatabase = TestDatabase.createSeparate();
        try {
            empty = drainRate(emptyDatabase, Files.createDirectories(work.resolve("inbox-empty")), "empty-" + size);
        } finally {
            emptyDatabase.drop();
        }
        double grown = drainRate(database, inbox, "grown-" + size);
        System.out.printf(Locale.ROOT, "JMS drain: %,.0f inputs/s into an empty database, %,.0f into the grown one"
                + " (%.2f)%n", empty, grown, grown / empty);
        results.put("JMS drain into an empty database", size, empty, "inputs/s");
        results.put("JMS drain into the grown database", size, grown, "inputs/s");
        results.put("JMS drain, grown / empty", size, grown / empty, "ratio");
    }

    /** Inputs per second over the timed part of a JMS drain into {@code into}; every input must be audited. */
    private double drainRate(TestDatabase into, Path inbox, String stream) throws Exception {
        String brokerUrl = "tcp://127.0.0.1:" + FreePort.onLoopback();
        try (Service service = startService(into, inbox, brokerUrl, Map.of(
                "camel.main.auto-startup-exclude-pattern", JMS_ROUTE,
                "management.endpoint.camelroutes.read-only", "false"))) {
            long auditsBefore = count(into, "SELECT coalesce(max(id), 0) FROM claimguard.verification_audit");
            long deadLettersBefore = count(into, "SELECT coalesce(max(id), 0) FROM claimguard.dead_letter");
            new JmsClient(brokerUrl, TestBrokerUsers.users()).send(INPUT_QUEUE, drainInputs(stream));
            String audited = "SELECT count(*) FROM claimguard.verification_audit WHERE id > " + auditsBefore;
            service.process().routeOperation(JMS_ROUTE, "start", Duration.ofSeconds(30));
            awaitCount(into, audited, DRAIN_WARM_UP);
            long warm = count(into, audited);
            long started = System.nanoTime();
            awaitCount(into, audited, DRAIN_WARM_UP + DRAIN_TIMED);
            double rate = (count(into, audited) - warm) / seconds(started);
            long deadLettered = count(into, "SELECT count(*) FROM claimguard.dead_letter WHERE id > " + deadLettersBefore);
            if (deadLettered > 0) {
                throw new IllegalStateException(deadLettered + " inputs of the drain were dead-lettered; every one is"
                        + " an example envelope with a request_id of its own");
            }
            return rate;
        }
    }

    /** The examples in turn, each with a request_id of its own, so that every input is a new audit. */
    private static List<HarnessInput> drainInputs(String stream) {
        List<ExampleEnvelopes.Example> examples = ExampleEnvelopes.load(Path.of("examples"));
        List<HarnessInput> inputs = new ArrayList<>(DRAIN_WARM_UP + DRAIN_TIMED);
        for (int i = 0; i < DRAIN_WARM_UP + DRAIN_TIMED; i++) {
            String requestId = "drain-" + stream + "-" + i;
            byte[] bytes = REQUEST_ID.matcher(examples.get(i % examples.size()).json())
                    .replaceFirst(Matcher.quoteReplacement("\"request_id\": \"" + requestId + "\""))
                    .getBytes(StandardCharsets.UTF_8);
            inputs.add(HarnessInput.of(requestId, HarnessInput.Channel.JMS, HarnessInput.Kind.VALID, requestId, null,
                    bytes, 0, false));
        }
        return inputs;
    }

    // ---- the analyst views

    private void timeAnalystViews(long size) throws SQLException {
        String day = LocalDate.now(ZoneOffset.UTC).minusDays(100).toString();
        Map<String, String> queries = new LinkedHashMap<>();
        for (String view : List.of("downgrades_per_reason_daily", "verifier_version_share_daily", "findings_per_code_daily")) {
            queries.put(view + ", one day", "SELECT * FROM claimguard." + view + " WHERE day = DATE '" + day + "'");
            queries.put(view + ", all time", "SELECT * FROM claimguard." + view);
        }
        for (String view : List.of("guard_overruled_pass", "findings_under_pass")) {
            queries.put(view + ", one day", "SELECT * FROM claimguard." + view + " WHERE received_at >= DATE '" + day
                    + "' AND received_at < DATE '" + day + "' + 1");
            queries.put(view + ", all time", "SELECT * FROM claimguard." + view);
        }
        queries.put("verification_labels_by_claim_type, all time", "SELECT * FROM claimguard.verification_labels_by_claim_type");
        queries.put("verification_labels_by_tool, all time", "SELECT * FROM claimguard.verification_labels_by_tool");
        try (Connection connection = database.connect()) {
            for (Map.Entry<String, String> query : queries.entrySet()) {
                double best = Double.MAX_VALUE;
                long rows = 0;
                for (int i = 0; i < 2; i++) {
                    long started = System.nanoTime();
                    try (Statement statement = connection.createStatement();
                            ResultSet rs = statement.executeQuery(query.getValue())) {
                        rows = 0;
                        while (rs.next()) {
                            rows++;
                        }
                    }
                    best = Math.min(best, (System.nanoTime() - started) / 1e6);
                }
                System.out.printf(Locale.ROOT, "%-50s %8.1f ms (%,d rows)%n", query.getKey(), best, rows);
                results.put("view " + query.getKey(), size, best, "ms");
            }
        }
    }

    // ---- disk

    private void sizeOnDisk(long size) throws SQLException {
        long audits = count("SELECT count(*) FROM claimguard.verification_audit");
        long total = 0;
        // a partition counts towards its partitioned table, a partition's index towards the partitioned index
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("""
                        SELECT coalesce(pg_partition_root(c.oid), c.oid)::regclass::text AS relation,
                               sum(pg_total_relation_size(c.oid)), sum(pg_relation_size(c.oid)),
                               sum(coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0))
                        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = 'claimguard' AND c.relkind = 'r'
                        GROUP BY 1 ORDER BY 2 DESC""")) {
            while (rs.next()) {
                String relation = rs.getString(1).replaceFirst("^claimguard\\.", "");
                long bytes = rs.getLong(2);
                total += bytes;
                if (bytes > 64 * 1024) {
                    System.out.printf(Locale.ROOT, "%-28s %,12d KB  %,8.0f bytes per audit%n", relation,
                            bytes / 1024, (double) bytes / audits);
                    results.put("disk: " + relation + " (with indexes, TOAST)", size, (double) bytes / audits,
                            "bytes/audit");
                    results.put("disk: " + relation + ", heap", size, (double) rs.getLong(3) / audits, "bytes/audit");
                    results.put("disk: " + relation + ", TOAST", size, (double) rs.getLong(4) / audits, "bytes/audit");
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-28s %,12d KB  %,8.0f bytes per audit%n", "total", total / 1024,
                (double) total / audits);
        results.put("disk: total", size, total / 1024.0 / 1024.0, "MB");
        results.put("disk: per audit", size, (double) total / audits, "bytes/audit");
        sizeOfIndexes(size, audits);
        sizeOfColumns(size, audits);
    }

    private void sizeOfIndexes(long size, long audits) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("""
                        SELECT coalesce(pg_partition_root(c.oid), c.oid)::regclass::text, sum(pg_relation_size(c.oid))
                        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = 'claimguard' AND c.relkind = 'i'
                        GROUP BY 1 HAVING sum(pg_relation_size(c.oid)) > 64 * 1024 ORDER BY 2 DESC""")) {
            while (rs.next()) {
                results.put("disk: index " + rs.getString(1).replaceFirst("^claimguard\\.", ""), size,
                        (double) rs.getLong(2) / audits, "bytes/audit");
            }
        }
    }

    /** What each column of the audit tables holds per audit: pg_column_size, compressed and TOASTed as stored. */
    private void sizeOfColumns(long size, long audits) throws SQLException {
        for (String table : List.of("verification_audit", "claim_check", "finding", "audit_seal")) {
            List<String> columns = new ArrayList<>();
            try (Connection connection = database.connect(); PreparedStatement query = connection.prepareStatement("""
                    SELECT attname FROM pg_attribute
                    WHERE attrelid = ('claimguard.' || ?)::regclass AND attnum > 0 AND NOT attisdropped
                    ORDER BY attnum""")) {
                query.setString(1, table);
                try (ResultSet rs = query.executeQuery()) {
                    while (rs.next()) {
                        columns.add(rs.getString(1));
                    }
                }
            }
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append("coalesce(sum(pg_column_size(\"").append(columns.get(i))
                        .append("\")), 0)");
            }
            sql.append(" FROM claimguard.").append(table);
            try (Connection connection = database.connect(); Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery(sql.toString())) {
                rs.next();
                for (int i = 0; i < columns.size(); i++) {
                    results.put("disk: column " + table + "." + columns.get(i), size,
                            (double) rs.getLong(i + 1) / audits, "bytes/audit");
                }
            }
        }
    }

    // ---- database helpers

    private void vacuumAnalyze() throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("VACUUM ANALYZE claimguard.verification_audit, claimguard.claim_check, claimguard.finding,"
                    + " claimguard.dead_letter, claimguard.audit_seal, claimguard.audit_rollup, claimguard.guard_reason_rollup,"
                    + " claimguard.claim_check_rollup, claimguard.finding_rollup, claimguard.finding_under_pass_rollup,"
                    + " claimguard.claim_label_rollup");
        }
    }

    private long count(String sql) throws SQLException {
        return count(database, sql);
    }

    private static long count(TestDatabase in, String sql) throws SQLException {
        try (Connection connection = in.connect(); PreparedStatement query = connection.prepareStatement(sql);
                ResultSet rs = query.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void awaitCount(String sql, long atLeast) throws Exception {
        awaitCount(database, sql, atLeast);
    }

    private static void awaitCount(TestDatabase in, String sql, long atLeast) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (count(in, sql) < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited in vain for " + atLeast + ": " + sql);
            }
            Thread.sleep(250);
        }
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    static String timestamp() {
        return DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(Instant.now());
    }
}
