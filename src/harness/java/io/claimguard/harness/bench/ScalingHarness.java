package io.claimguard.harness.bench;

import static io.claimguard.testkit.HarnessArguments.positive;
import static io.claimguard.testkit.HarnessArguments.value;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerRole;
import io.claimguard.testkit.ExternalArtemis;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.HarnessArguments;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestBrokerUsers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Throughput with 1, 2 and 3 instances of the service jar on one standalone Artemis broker and one PostgreSQL, side by
 * side in one run: for each count, a fresh database and broker, the instances started with their JMS intake held
 * back, a warm-up drained and the intake stopped again, then a backlog queued and drained by all instances at once.
 * The CPU time of the instances, of the broker and of PostgreSQL (every {@code postgres} process of the machine) is
 * read from {@code /proc} over exactly the drain, so that the run also gives the CPU each input costs each of them:
 * the model of what a machine with more cores would do.
 *
 * <p>{@code ./mvnw -B -Pscaling -DskipTests package [-Dscaling.args="--instances 1,2,3 --messages 10000"]}
 */
public final class ScalingHarness {

    static final String USAGE = """
            usage: ScalingHarness [--instances 1,2,3] [--messages N] [--warm-up N] [--seed X]
                                  [--jar target/claimguard-*.jar] [--results bench/results]
              defaults: instances 1,2,3; 10000 messages and a warm-up of 3000 per instance count
            """;
    private static final String INPUT_QUEUE = "verifier.results";
    private static final String JMS_ROUTE = "jms-intake";
    private static final Duration START_PATIENCE = Duration.ofMinutes(3);

    record Options(List<Integer> instances, int messages, int warmUp, long seed, Path jar, Path results) {

        static Options parse(String[] args) {
            List<Integer> instances = List.of(1, 2, 3);
            int messages = 10_000;
            int warmUp = 3_000;
            long seed = System.nanoTime();
            Path jar = null;
            Path results = Path.of("bench/results");
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                switch (option) {
                    case "--instances" -> instances = Arrays.stream(value(args, ++i, option, USAGE).split(","))
                            .map(count -> positive(option, count.strip())).toList();
                    case "--messages" -> messages = positive(option, value(args, ++i, option, USAGE));
                    case "--warm-up" -> warmUp = Integer.parseInt(value(args, ++i, option, USAGE));
                    case "--seed" -> seed = Long.parseLong(value(args, ++i, option, USAGE));
                    case "--jar" -> jar = Path.of(value(args, ++i, option, USAGE));
                    case "--results" -> results = Path.of(value(args, ++i, option, USAGE));
                    case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                    default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
                }
            }
            return new Options(instances, messages, warmUp, seed, jar != null ? jar : ServiceProcess.findJar(), results);
        }
    }

    /**
     * One instance count's drain.
     *
     * @param serviceCores CPU of all instances together over the drain, in cores
     */
    record Row(int instances, int messages, double seconds, double serviceCores, double brokerCores,
            double postgresCores) {

        double inputsPerSecond() {
            return messages / seconds;
        }

        /** CPU milliseconds one input costs, from cores used over the drain. */
        double msPerInput(double cores) {
            return cores * seconds * 1000 / messages;
        }

        double totalMsPerInput() {
            return msPerInput(serviceCores + brokerCores + postgresCores);
        }
    }

    private final Options options;
    private final Instant started = Instant.now();
    private final Bench.Log log;

    private ScalingHarness(Options options) {
        this.options = options;
        this.log = new Bench.Log(started);
    }

    public static void main(String[] args) throws Exception {
        Options options = HarnessArguments.parseOrExit(args, Options::parse);
        if (LoggerFactory.getLogger("org.testcontainers") instanceof ch.qos.logback.classic.Logger logger) {
            logger.setLevel(ch.qos.logback.classic.Level.OFF);
        }
        System.exit(new ScalingHarness(options).run());
    }

    private int run() throws Exception {
        Path work = Files.createTempDirectory("claimguard-scaling-");
        BenchEnvelopes workload = BenchEnvelopes.load(Path.of("examples"), options.seed());
        log.line("scaling run: instances %s, %,d messages after a warm-up of %,d, seed %d", options.instances(),
                options.messages(), options.warmUp(), options.seed());
        List<Row> rows = new ArrayList<>();
        for (int count : options.instances()) {
            rows.add(measure(count, workload, work.resolve("instances-" + count)));
        }
        String markdown = markdown(rows);
        System.out.println();
        System.out.print(markdown);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started);
        Path written = Bench.writeResult(options.results(), "scaling", stamp, Map.of("options", options, "rows", rows),
                markdown);
        log.line("results written to %s (and .md)", written);
        return 0;
    }

    private Row measure(int count, BenchEnvelopes workload, Path work) throws Exception {
        try (BenchDatabase database = BenchDatabase.migrated(); Connection sql = database.connect()) {
            ExternalArtemis broker = ExternalArtemis.create(work.resolve("broker"), Map.of());
            List<ServiceProcess> instances = new ArrayList<>();
            try {
                for (int number = 1; number <= count; number++) {
                    instances.add(start(number, database, broker, work));
                }
                instances.forEach(this::awaitHeld);
                JmsClient jms = new JmsClient(broker.url(), TestBrokerUsers.users());
                if (options.warmUp() > 0) {
                    jms.send(INPUT_QUEUE, Bench.jmsInputs(workload, "warm-" + count, 0, options.warmUp(), envelope -> { }));
                    instances.forEach(instance -> route(instance, "start"));
                    awaitRows(sql, options.warmUp());
                    instances.forEach(instance -> route(instance, "stop"));
                    instances.forEach(instance -> awaitRoute(instance, "Stopped"));
                }
                jms.send(INPUT_QUEUE, Bench.jmsInputs(workload, "jms-" + count, 0, options.messages(), envelope -> { }));
                log.line("%d instance(s): %,d messages queued; starting %s on every instance", count, options.messages(),
                        JMS_ROUTE);

                // the PostgreSQL processes of the drain: the server's backends live as long as the instances' pools
                List<Long> postgres = postgresPids();
                Map<Long, Duration> cpuBefore = cpuOf(instances, broker, postgres);
                long begin = System.nanoTime();
                instances.forEach(instance -> route(instance, "start"));
                awaitRows(sql, options.warmUp() + options.messages());
                Duration window = Duration.ofNanos(System.nanoTime() - begin);
                Map<Long, Duration> cpuAfter = cpuOf(instances, broker, postgres);

                double serviceCores = instances.stream().mapToDouble(instance -> cores(cpuBefore, cpuAfter, instance.pid(), window))
                        .sum();
                double brokerCores = cores(cpuBefore, cpuAfter, broker.pid(), window);
                double postgresCores = postgres.stream()
                        .mapToDouble(pid -> cores(cpuBefore, cpuAfter, pid, window)).sum();
                Row row = new Row(count, options.messages(), window.toNanos() / 1e9, serviceCores, brokerCores, postgresCores);
                log.line("%d instance(s): drained in %.1f s, %,.0f inputs/s; CPU cores: service %.2f, broker %.2f,"
                                + " PostgreSQL %.2f; CPU ms per input %.2f", count, row.seconds(), row.inputsPerSecond(),
                        serviceCores, brokerCores, postgresCores, row.totalMsPerInput());
                return row;
            } finally {
                instances.forEach(ServiceProcess::close);
                broker.kill();
            }
        }
    }

    private ServiceProcess start(int number, BenchDatabase database, ExternalArtemis broker, Path work) throws IOException {
        int managementPort = FreePort.onLoopback();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.database().username());
        properties.put("spring.datasource.password", database.database().password());
        properties.put("spring.artemis.mode", "native");
        properties.put("spring.artemis.broker-url", broker.url());
        properties.put("spring.artemis.user", TestBrokerUsers.login(BrokerRole.SERVICE).user());
        properties.put("spring.artemis.password", TestBrokerUsers.login(BrokerRole.SERVICE).password());
        properties.put("claimguard.instance-id", "instance-" + number);
        properties.put("claimguard.management.port", Integer.toString(managementPort));
        properties.put("claimguard.file.inbox", work.resolve("inbox-" + number).toString());
        properties.put("claimguard.file.outbox", work.resolve("outbox-" + number).toString());
        // the intake stays stopped until the backlog is queued, then every instance starts it at once
        properties.put("camel.main.auto-startup-exclude-pattern", JMS_ROUTE + ",file-intake");
        properties.put("management.endpoint.camelroutes.read-only", "false");
        ServiceProcess instance = new ServiceProcess(options.jar(), List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"),
                properties, Files.createDirectories(work.resolve("logs-" + number)), managementPort);
        instance.start();
        return instance;
    }

    /** Up, with the JMS intake still stopped (readiness stays DOWN while a route is stopped, so it cannot be the signal). */
    private void awaitHeld(ServiceProcess instance) {
        await("instance up with its intake held").atMost(START_PATIENCE).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    if (!instance.alive()) {
                        throw new IllegalStateException("an instance exited; last lines:\n" + instance.logTail(40));
                    }
                    return instance.status("/actuator/health/liveness", Duration.ofSeconds(5)) == 200
                            && "Stopped".equals(instance.routes().get(JMS_ROUTE))
                            && "Started".equals(instance.routes().get("verify-steps"));
                });
    }

    private static void route(ServiceProcess instance, String operation) {
        instance.routeOperation(JMS_ROUTE, operation, Duration.ofSeconds(60));
    }

    private void awaitRoute(ServiceProcess instance, String status) {
        await(JMS_ROUTE + " " + status).atMost(START_PATIENCE).pollInterval(Duration.ofMillis(250))
                .until(() -> status.equals(instance.routes().get(JMS_ROUTE)));
    }

    private static void awaitRows(Connection sql, long rows) {
        await(rows + " audit rows").atMost(Duration.ofMinutes(20)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    long[] committed = BenchDatabase.auditAndDeadLetters(sql);
                    if (committed[1] > 0) {
                        throw new IllegalStateException(committed[1] + " inputs were dead-lettered; the workload is valid");
                    }
                    return committed[0] >= rows;
                });
    }

    private static Map<Long, Duration> cpuOf(List<ServiceProcess> instances, ExternalArtemis broker, List<Long> postgres) {
        Map<Long, Duration> cpu = new LinkedHashMap<>();
        instances.forEach(instance -> cpu.put(instance.pid(), ProcessProbe.cpuTime(instance.pid())));
        cpu.put(broker.pid(), ProcessProbe.cpuTime(broker.pid()));
        postgres.forEach(pid -> ProcessHandle.of(pid).flatMap(process -> process.info().totalCpuDuration())
                .ifPresent(time -> cpu.put(pid, time)));
        return cpu;
    }

    /** Every PostgreSQL server process of the machine: the postmaster and its backends and workers. */
    private static List<Long> postgresPids() {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().command().map(command -> command.endsWith("/postgres")).orElse(false)
                        || process.info().commandLine().map(line -> line.startsWith("postgres:")).orElse(false))
                .map(ProcessHandle::pid).toList();
    }

    /** Cores used over the window; a process that started or ended within it counts what it used while there. */
    private static double cores(Map<Long, Duration> before, Map<Long, Duration> after, long pid, Duration window) {
        Duration end = after.get(pid);
        if (end == null) {
            return 0;
        }
        return (double) end.minus(before.getOrDefault(pid, Duration.ZERO)).toNanos() / window.toNanos();
    }

    private String markdown(List<Row> rows) {
        StringBuilder text = new StringBuilder("# ClaimGuard scaling, " + started + "\n\n");
        text.append(String.format(Locale.ROOT, "%,d JMS messages per run after a warm-up of %,d; %d cores, Java %s%n%n",
                options.messages(), options.warmUp(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version")));
        text.append("| instances | inputs/s | x one instance | CPU cores: service | broker | PostgreSQL | CPU ms per input:"
                + " service | broker | PostgreSQL | all |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        double one = rows.get(0).inputsPerSecond();
        for (Row row : rows) {
            text.append(String.format(Locale.ROOT, "| %d | %,.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
                    row.instances(), row.inputsPerSecond(), row.inputsPerSecond() / one, row.serviceCores(),
                    row.brokerCores(), row.postgresCores(), row.msPerInput(row.serviceCores()),
                    row.msPerInput(row.brokerCores()), row.msPerInput(row.postgresCores()), row.totalMsPerInput()));
        }
        // the cheapest row: on a machine with cores to spare, instances do not pay for sharing two of them
        Row best = rows.stream().min(Comparator.comparingDouble(Row::totalMsPerInput)).orElseThrow();
        text.append(String.format(Locale.ROOT, "%nModel: with %d instance(s) an input cost %.2f ms of CPU in all (service"
                        + " %.2f, broker %.2f, PostgreSQL %.2f), the least of these runs. CPU-bound, a machine gives at most"
                        + " 1000 x cores / %.2f inputs/s: %,.0f on 2 cores, %,.0f on 8, %,.0f on 16, as long as nothing"
                        + " else binds (the database's commits, the broker's journal, the network), with instances enough"
                        + " to use the cores.%n",
                best.instances(), best.totalMsPerInput(), best.msPerInput(best.serviceCores()),
                best.msPerInput(best.brokerCores()), best.msPerInput(best.postgresCores()), best.totalMsPerInput(),
                2000 / best.totalMsPerInput(), 8000 / best.totalMsPerInput(), 16000 / best.totalMsPerInput()));
        return text.toString();
    }
}
