package io.claimguard.harness.bench;

import static org.awaitility.Awaitility.await;

import io.claimguard.harness.bench.BenchEnvelopes.BenchEnvelope;
import io.claimguard.harness.bench.BenchEnvelopes.Mix;
import io.claimguard.harness.bench.ThroughputReport.Row;
import io.claimguard.harness.bench.ThroughputReport.Target;
import io.claimguard.testkit.HarnessArguments;
import io.claimguard.testkit.KafkaBroker;
import io.claimguard.testkit.KafkaClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.AppInfoParser;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The throughput benchmark: the service jar with the real PostgreSQL and its embedded broker, draining a queued
 * backlog of realistic envelopes by JMS and by file drop, side by side with the ceiling (plain JDBC batches of
 * the same rows, {@link JdbcCeiling}) and the baseline (a one-message-at-a-time Camel route, {@link CamelBaseline}).
 * Then the latency of each path at half its maximum rate. Prints one table with the ratios and the targets, and
 * writes it to {@code bench/results/throughput-<UTC time>.{json,md}}. With {@code --memory}, the memory check
 * instead ({@link MemoryReport}).
 *
 * <p>{@code ./mvnw -B -Pthroughput -DskipTests package [-Dthroughput.args="--quick"]}; options in
 * {@link ThroughputOptions#USAGE}. Exits 0 whether targets are met or missed, 1 when the run is broken (an input
 * lost, a result missing, the service dead), 2 for bad options.
 */
public final class ThroughputHarness {

    /** Results of the latency inputs arrive within a second or two; two minutes means they are lost. */
    private static final Duration RESULT_PATIENCE = Duration.ofMinutes(2);
    /** A drained file is moved to .done/ right after its row commits and its result is sent. */
    private static final Duration FILE_MOVE_PATIENCE = Duration.ofSeconds(60);

    /** Input topic partitions: room for several consumer threads or instances, as a real topic has. */
    private static final int KAFKA_PARTITIONS = 4;
    /** The naive baseline's inputs at most: one per transaction, its rate is flat after a few thousand. */
    private static final int BASELINE_INPUTS = 5_000;

    private final ThroughputOptions options;
    private final Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final Bench.Log log = new Bench.Log(started);
    private final List<String> problems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    /** claim_check rows the service must have written for everything sent to it so far. */
    private long expectedClaimChecks;

    private ThroughputHarness(ThroughputOptions options) {
        this.options = options;
    }

    public static void main(String[] args) {
        ThroughputOptions options = HarnessArguments.parseOrExit(args, ThroughputOptions::parse);
        quietLogging();
        int exitCode;
        try {
            exitCode = new ThroughputHarness(options).run();
        } catch (Exception e) {
            System.err.println("throughput harness failed: " + e);
            e.printStackTrace();
            exitCode = 1;
        }
        // the shutdown hooks kill the service if it still runs and drop the databases
        System.exit(exitCode);
    }

    /**
     * The harness has no logging configuration of its own, and Logback's default is DEBUG for everything: the
     * baseline's broker and Camel would bury the progress lines. The baseline's queues have no dead-letter or
     * expiry address, as in the Camel examples, which Artemis warns about once per queue. Testcontainers' question
     * for Docker, which falls back to the local PostgreSQL, would log a page of ERROR lines that read like a failure.
     */
    private static void quietLogging() {
        setLevel(Logger.ROOT_LOGGER_NAME, ch.qos.logback.classic.Level.WARN);
        setLevel("org.apache.activemq.artemis.core.server", ch.qos.logback.classic.Level.ERROR);
        setLevel("org.testcontainers", ch.qos.logback.classic.Level.OFF);
    }

    private static void setLevel(String loggerName, ch.qos.logback.classic.Level level) {
        if (LoggerFactory.getLogger(loggerName) instanceof ch.qos.logback.classic.Logger logger) {
            logger.setLevel(level);
        }
    }

    private int run() throws Exception {
        Path work = Files.createTempDirectory("claimguard-throughput-");
        log.line("work folder %s", work);
        BenchEnvelopes workload = BenchEnvelopes.load(Path.of("examples"), options.seed());
        int exitCode = options.memory() ? memory(workload, work) : throughput(workload, work);
        if (exitCode == 0 && !options.keepWork()) {
            deleteRecursively(work);
        } else {
            log.line("work folder kept for inspection: %s (service logs in %s)", work, work.resolve("service/logs"));
        }
        return exitCode;
    }

    // ---------------------------------------------------------------------------------------------- throughput

    /** What one service path did: its drain, its peak RSS over the drain, its latency at half the drain rate. */
    private record PathRun(int inputs, ServiceUnderTest.Drain drain, double peakRssMib, LatencyProbe.Latency latency) {

        double inputsPerSecond() {
            return inputs / drain.seconds();
        }

        PathRun withLatency(LatencyProbe.Latency measured) {
            return new PathRun(inputs, drain, peakRssMib, measured);
        }
    }

    private int throughput(BenchEnvelopes workload, Path work) throws Exception {
        int jmsCount = options.jmsInputs();
        log.line("%s run, seed %d: %,d JMS envelopes, %,d files, latency %d s per path", options.size(), options.seed(),
                jmsCount, options.fileInputs(), options.latencyWindow().toSeconds());
        CeilingPhase ceilingPhase = ceiling(workload, jmsCount);
        JdbcCeiling.Result ceiling = ceilingPhase.result();
        log.line("ceiling: %,d envelopes (%,d claim_check rows) in %.1f s: %,.0f envelopes/s, %,.0f rows/s",
                ceiling.envelopes(), ceiling.claimCheckRows(), ceiling.seconds(), ceiling.envelopesPerSecond(),
                ceiling.rowsPerSecond());

        CamelBaseline.Result baseline;
        try (BenchDatabase database = BenchDatabase.migrated()) {
            // one message per transaction takes minutes for 50,000; its rate is flat after a few thousand
            baseline = CamelBaseline.run(workload, Math.min(jmsCount, BASELINE_INPUTS), database, work,
                    options.drainTimeout(), log);
        }
        problems.addAll(baseline.problems());
        log.line("baseline: %,d envelopes in %.1f s: %,.0f envelopes/s (%,d results forwarded)", baseline.envelopes(),
                baseline.seconds(), baseline.envelopesPerSecond(), baseline.forwarded());

        PipelineCeiling.Result pipeline;
        warmUpRounds("pipeline ceiling", round -> {
            try (BenchDatabase database = BenchDatabase.migrated()) {
                return PipelineCeiling.run(workload, options.warmUpInputs(), database, work.resolve("warm-up-" + round),
                        options.drainTimeout(), log).cpu().compilerShare();
            }
        });
        try (BenchDatabase database = BenchDatabase.migrated()) {
            pipeline = PipelineCeiling.run(workload, jmsCount, database, work, options.drainTimeout(), log);
        }
        problems.addAll(pipeline.problems());
        log.line("pipeline ceiling: %,d envelopes in %.1f s: %,.0f envelopes/s (%,d results forwarded)",
                pipeline.envelopes(), pipeline.seconds(), pipeline.envelopesPerSecond(), pipeline.forwarded());

        PathRun jms;
        PathRun files;
        try (ServiceUnderTest service = new ServiceUnderTest(options, work.resolve("service"), options.serviceHeap())) {
            service.startHeld();
            log.line("service up as pid %d (-Xmx%s, database %s), intake routes held back", service.pid(),
                    options.serviceHeap(), service.databaseName());
            warmUpRounds("service", round -> warmUp(service, workload, round));
            service.analyze();
            jms = jmsPath(service, workload);
            files = filePath(service, workload);
            BenchDatabase.Rows rows = service.rows();
            if (rows.claimChecks() != expectedClaimChecks) {
                problems.add("the service wrote " + rows.claimChecks() + " claim_check rows, expected " + expectedClaimChecks);
            }
            service.stop();
        }
        PathRun kafka = kafkaEntry(workload, work);

        ThroughputReport report = report(ceilingPhase.mix(), ceilingPhase.machine(), ceiling, pipeline, baseline, jms, files,
                kafka);
        System.out.println();
        System.out.print(report.text());
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started);
        log.line("results written to %s (and .md)", report.write(options.resultsDir(), stamp));
        return report.broken() ? 1 : 0;
    }

    private record CeilingPhase(JdbcCeiling.Result result, BenchEnvelopes.Summary mix, String machine) {
    }

    /** The JMS backlog's envelopes are held for the ceiling only; the service's backlog is generated as it is sent. */
    private CeilingPhase ceiling(BenchEnvelopes workload, int count) throws Exception {
        List<BenchEnvelope> backlog = workload.envelopes(Bench.JMS_STREAM, count);
        BenchEnvelopes.Summary mix = Mix.of(backlog).summary();
        log.line("workload: %s", mix.describe());
        try (BenchDatabase database = BenchDatabase.migrated();
                Connection sql = database.connect()) {
            String machine = machine(BenchDatabase.serverVersion(sql));
            // warmed up as the service is, each round in a database of its own: the JIT has compiled the JDBC path
            // before it is timed
            warmUpRounds("ceiling", round -> {
                try (BenchDatabase warmUp = BenchDatabase.migrated()) {
                    return JdbcCeiling.run(workload.envelopes(Bench.WARM_UP_STREAM, options.warmUpInputs()), warmUp)
                            .cpu().compilerShare();
                }
            });
            log.line("ceiling: %,d audit records computed, then plain JDBC batches of %d envelopes per transaction into %s",
                    count, JdbcCeiling.ENVELOPES_PER_TRANSACTION, database.name());
            return new CeilingPhase(JdbcCeiling.run(backlog, database), mix, machine);
        }
    }

    /** One warm-up round of a path: returns the JIT compiler threads' share of the CPU it took. */
    @FunctionalInterface
    private interface WarmUpRound {
        double run(int round) throws Exception;
    }

    /**
     * Runs warm-up rounds until the JIT compiler's share of a round's CPU is under
     * {@link ThroughputOptions#STEADY_JIT_SHARE} (or {@code warmUpRounds} were run): a JVM just started spends most
     * of its CPU compiling (55 % of a cold 10,000-message drain, 19 % still after 30,000 inputs), which is not what a
     * service that runs for days costs. The rounds are logged and noted with the report.
     */
    private void warmUpRounds(String path, WarmUpRound round) throws Exception {
        if (options.warmUpInputs() == 0) {
            return;
        }
        long warming = System.nanoTime();
        List<String> shares = new ArrayList<>();
        for (int i = 0; i < options.warmUpRounds(); i++) {
            double share = round.run(i);
            shares.add(String.format(Locale.ROOT, "%.0f", share * 100));
            if (share < ThroughputOptions.STEADY_JIT_SHARE) {
                break;
            }
        }
        String line = String.format(Locale.ROOT, "%s warm-up: %d rounds of %,d inputs in %.0f s, JIT %% of CPU per round: %s",
                path, shares.size(), options.warmUpInputs(), secondsSince(warming), String.join(", ", shares));
        log.line("%s", line);
        notes.add(line);
    }

    /** A warm-up round through both intake routes (a fifth as many files), held back again after it. */
    private double warmUp(ServiceUnderTest service, BenchEnvelopes workload, int round) throws Exception {
        int jmsCount = options.warmUpInputs();
        int fileCount = Math.max(1, jmsCount / 5);
        long rowsBefore = service.auditRows();
        service.jms().send(ServiceUnderTest.INPUT_QUEUE, Bench.jmsInputs(workload, Bench.WARM_UP_STREAM,
                round * jmsCount, (round + 1) * jmsCount, envelope -> expectedClaimChecks += envelope.claimChecks()));
        for (int i = round * fileCount; i < (round + 1) * fileCount; i++) {
            BenchEnvelope envelope = workload.envelope(Bench.WARM_UP_FILE_STREAM, i);
            expectedClaimChecks += envelope.claimChecks();
            Bench.dropFile(service.inbox(), envelope);
        }
        service.startRoute(ServiceUnderTest.FILE_ROUTE);
        ServiceUnderTest.Drain drain = service.drain(ServiceUnderTest.JMS_ROUTE, rowsBefore + jmsCount + fileCount,
                options.drainTimeout());
        service.stopRoute(ServiceUnderTest.JMS_ROUTE);
        service.stopRoute(ServiceUnderTest.FILE_ROUTE);
        checkForwarded(service, jmsCount + fileCount, "warm-up");
        checkFilesMoved(service, (round + 1L) * fileCount);
        log.line("warm-up round %d: %,d JMS messages and %,d files in %.1f s, JIT %.0f %% of CPU (not measured)", round + 1,
                jmsCount, fileCount, drain.seconds(), drain.cpu().compilerShare() * 100);
        return drain.cpu().compilerShare();
    }

    private PathRun jmsPath(ServiceUnderTest service, BenchEnvelopes workload) throws Exception {
        int count = options.jmsInputs();
        long rowsBefore = service.auditRows();
        long queueing = System.nanoTime();
        Bench.queueJms(service.jms(), ServiceUnderTest.INPUT_QUEUE, workload, Bench.JMS_STREAM, count,
                envelope -> expectedClaimChecks += envelope.claimChecks());
        log.line("service JMS: %,d messages queued in %.1f s; starting %s", count, secondsSince(queueing),
                ServiceUnderTest.JMS_ROUTE);
        PathRun drained = timedDrain(service, ServiceUnderTest.JMS_ROUTE, rowsBefore, count, "JMS");
        checkForwarded(service, count, "JMS");
        return drained.withLatency(latency(service, workload, Bench.JMS_LATENCY_STREAM, drained.inputsPerSecond() / 2,
                LatencyProbe.jmsResults(service.brokerUrl(), ServiceUnderTest.OUTPUT_QUEUE),
                LatencyProbe.jms(service.brokerUrl(), ServiceUnderTest.INPUT_QUEUE), "JMS"));
    }

    /**
     * The Kafka entry, in a service of its own (its own database) beside a real Kafka broker, so that the broker's
     * process does not share the cores while JMS and files are measured: warmed up like the others, the same number of
     * envelopes as the JMS path produced with the route held back, then drained and timed the same way.
     */
    private PathRun kafkaEntry(BenchEnvelopes workload, Path work) throws Exception {
        expectedClaimChecks = 0;
        try (KafkaBroker broker = KafkaBroker.create(work.resolve("kafka"));
                KafkaClient client = new KafkaClient(broker.bootstrapServers())) {
            broker.createTopics(KAFKA_PARTITIONS, ServiceUnderTest.INPUT_TOPIC, ServiceUnderTest.OUTPUT_TOPIC,
                    ServiceUnderTest.DEAD_LETTER_TOPIC);
            try (ServiceUnderTest service = new ServiceUnderTest(options, work.resolve("service-kafka"),
                    options.serviceHeap(), broker.bootstrapServers())) {
                service.startHeld();
                log.line("Kafka broker %s (pid %d, %d partitions); service up as pid %d, intake routes held back",
                        broker.bootstrapServers(), broker.pid(), KAFKA_PARTITIONS, service.pid());
                int[] warmUp = {0};
                warmUpRounds("Kafka service", round -> {
                    long rowsBefore = service.auditRows();
                    produce(client, workload, Bench.WARM_UP_KAFKA_STREAM, round * options.warmUpInputs(), options.warmUpInputs());
                    ServiceUnderTest.Drain drain = service.drain(ServiceUnderTest.KAFKA_ROUTE,
                            rowsBefore + options.warmUpInputs(), options.drainTimeout());
                    service.stopRoute(ServiceUnderTest.KAFKA_ROUTE);
                    warmUp[0] += options.warmUpInputs();
                    return drain.cpu().compilerShare();
                });
                service.analyze();
                int count = options.jmsInputs();
                long rowsBefore = service.auditRows();
                long producing = System.nanoTime();
                produce(client, workload, Bench.KAFKA_STREAM, 0, count);
                log.line("service Kafka: %,d records produced in %.1f s; starting %s", count, secondsSince(producing),
                        ServiceUnderTest.KAFKA_ROUTE);
                PathRun drained = timedDrain(service, ServiceUnderTest.KAFKA_ROUTE, rowsBefore, count, "Kafka");
                int results = service.kafkaOutputs(warmUp[0] + count).size();
                if (results != warmUp[0] + count) {
                    problems.add("Kafka: " + results + " distinct results on " + ServiceUnderTest.OUTPUT_TOPIC + " for "
                            + (warmUp[0] + count) + " inputs");
                }
                PathRun measured = drained.withLatency(latency(service, workload, Bench.KAFKA_LATENCY_STREAM,
                        drained.inputsPerSecond() / 2, LatencyProbe.kafkaResults(broker.bootstrapServers(),
                                ServiceUnderTest.OUTPUT_TOPIC),
                        LatencyProbe.kafka(client, ServiceUnderTest.INPUT_TOPIC), "Kafka"));
                BenchDatabase.Rows rows = service.rows();
                if (rows.claimChecks() != expectedClaimChecks) {
                    problems.add("the Kafka service wrote " + rows.claimChecks() + " claim_check rows, expected "
                            + expectedClaimChecks);
                }
                service.stop();
                return measured;
            }
        }
    }

    private void produce(KafkaClient client, BenchEnvelopes workload, String stream, int from, int count) {
        List<BenchEnvelope> envelopes = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            envelopes.add(workload.envelope(stream, i));
        }
        envelopes.forEach(envelope -> expectedClaimChecks += envelope.claimChecks());
        client.produceAll(ServiceUnderTest.INPUT_TOPIC, envelopes.stream().map(BenchEnvelope::bytes).toList());
    }

    private PathRun filePath(ServiceUnderTest service, BenchEnvelopes workload) throws Exception {
        int count = options.fileInputs();
        long rowsBefore = service.auditRows();
        long doneBefore = service.filesIn(".done");
        long dropping = System.nanoTime();
        for (int i = 0; i < count; i++) {
            BenchEnvelope envelope = workload.envelope(Bench.FILE_STREAM, i);
            expectedClaimChecks += envelope.claimChecks();
            Bench.dropFile(service.inbox(), envelope);
        }
        log.line("service files: %,d files dropped in %.1f s; starting %s", count, secondsSince(dropping),
                ServiceUnderTest.FILE_ROUTE);
        PathRun drained = timedDrain(service, ServiceUnderTest.FILE_ROUTE, rowsBefore, count, "files");
        // both intake routes run now: readiness must be 200, as in production
        service.awaitReady();
        checkForwarded(service, count, "file");
        checkFilesMoved(service, doneBefore + count);
        return drained.withLatency(latency(service, workload, Bench.FILE_LATENCY_STREAM, drained.inputsPerSecond() / 2,
                LatencyProbe.jmsResults(service.brokerUrl(), ServiceUnderTest.OUTPUT_QUEUE),
                LatencyProbe.files(service.inbox()), "file"));
    }

    /**
     * Starts an intake route on its queued backlog and times the drain until {@code rowsBefore + count} audit rows
     * exist; peak RSS covers the drain only. The latency is measured afterwards.
     */
    private PathRun timedDrain(ServiceUnderTest service, String route, long rowsBefore, int count, String path)
            throws Exception {
        resetPeakRss(service);
        ServiceUnderTest.Drain drain = service.drain(route, rowsBefore + count, options.drainTimeout());
        double peakRss = ProcessProbe.peakRssMib(service.pid());
        log.line("service %s: drained in %.1f s: %,.0f inputs/s, %.2f CPU cores (JIT compiler %.0f %%), PostgreSQL %.2f"
                + " cores, peak RSS %,.0f MiB", path, drain.seconds(), count / drain.seconds(), drain.cpu().cores(),
                drain.cpu().compilerShare() * 100, drain.cpu().postgresCores(), peakRss);
        return new PathRun(count, drain, peakRss, null);
    }

    /** Every drained input's result is on the output queue: one distinct audit id per input. */
    private void checkForwarded(ServiceUnderTest service, int count, String path) throws Exception {
        Set<Long> forwarded = service.drainOutputs(count);
        if (forwarded.size() != count) {
            problems.add(path + ": " + forwarded.size() + " distinct results on " + ServiceUnderTest.OUTPUT_QUEUE + " for "
                    + count + " inputs");
        }
    }

    /** Every file so far in .done/ ({@code count} in all), none in .error/ nor left in the inbox. */
    private void checkFilesMoved(ServiceUnderTest service, long count) throws IOException {
        try {
            await("files moved to .done/").atMost(FILE_MOVE_PATIENCE).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(250)).until(() -> service.filesIn(".done") >= count);
        } catch (ConditionTimeoutException e) {
            // counted below
        }
        long done = service.filesIn(".done");
        long left = service.filesIn("");
        long errors = service.filesIn(".error");
        if (done != count || left != 0 || errors != 0) {
            problems.add("files: " + done + " of " + count + " in .done/, " + errors + " in .error/, " + left + " left in the inbox");
        }
    }

    private LatencyProbe.Latency latency(ServiceUnderTest service, BenchEnvelopes workload, String stream, double rate,
            LatencyProbe.Results results, LatencyProbe.Sender sender, String path) throws Exception {
        int count = Math.max(1, (int) Math.round(rate * options.latencyWindow().toSeconds()));
        List<BenchEnvelope> envelopes = workload.envelopes(stream, count);
        envelopes.forEach(envelope -> expectedClaimChecks += envelope.claimChecks());
        log.line("service %s latency: %,d inputs at %.0f/s (half the drain rate) for %d s", path, count, rate,
                options.latencyWindow().toSeconds());
        LatencyProbe.Latency latency = LatencyProbe.measure(results, envelopes, rate, sender, RESULT_PATIENCE);
        service.assertAlive("during the " + path + " latency measurement");
        if (latency.missing() > 0) {
            problems.add(path + " latency: " + latency.missing() + " of " + latency.inputs() + " results never arrived");
        }
        log.line("service %s latency: p50 %.0f ms, p99 %.0f ms, max %.0f ms (sent at %.0f/s)", path, latency.p50Millis(),
                latency.p99Millis(), latency.maxMillis(), latency.achievedRate());
        return latency;
    }

    private void resetPeakRss(ServiceUnderTest service) {
        if (!ProcessProbe.resetPeakRss(service.pid())) {
            notes.add("peak RSS could not be reset between phases (/proc/<pid>/clear_refs): it covers the service's whole life");
        }
    }

    private ThroughputReport report(BenchEnvelopes.Summary mix, String machine,
            JdbcCeiling.Result ceiling, PipelineCeiling.Result pipeline, CamelBaseline.Result baseline, PathRun jms,
            PathRun files, PathRun kafka) {
        double top = ceiling.envelopesPerSecond();
        double base = baseline.envelopesPerSecond();
        double lean = pipeline.envelopesPerSecond();
        List<Row> rows = List.of(
                new Row("ceiling: plain JDBC batches", ceiling.envelopes(), ceiling.seconds(), top, ceiling.rowsPerSecond(),
                        1.0, top / base, null, null, ceiling.cpu().cores(), ceiling.cpu().compilerShare(),
                        ceiling.cpu().postgresCores(), null),
                new Row("ceiling: full pipeline, lean loop", pipeline.envelopes(), pipeline.seconds(), lean, null,
                        lean / top, lean / base, null, null, pipeline.cpu().cores(), pipeline.cpu().compilerShare(),
                        pipeline.cpu().postgresCores(), null),
                new Row("baseline: Camel jms->jdbc->jms", baseline.envelopes(), baseline.seconds(), base, null, base / top, 1.0,
                        null, null, baseline.cpu().cores(), null, baseline.cpu().postgresCores(), null),
                serviceRow("service: JMS", jms, top, base),
                serviceRow("service: file drop", files, top, base),
                serviceRow("service: Kafka", kafka, top, base));
        List<Target> targets = List.of(
                Target.share("service JMS vs plain JDBC ceiling", jms.inputsPerSecond() / top, 0.50),
                Target.share("service JMS vs full-pipeline ceiling", jms.inputsPerSecond() / lean, 0.80),
                Target.multiple("service JMS vs baseline", jms.inputsPerSecond() / base, 10.0),
                Target.share("service file drop vs plain JDBC ceiling", files.inputsPerSecond() / top, 0.35),
                Target.below("service file p50 latency at half rate (ms)", files.latency().p50Millis(), 300),
                Target.below("service JMS p99 latency at half rate (ms)", jms.latency().p99Millis(), 100),
                Target.below("service Kafka p99 latency at half rate (ms)", kafka.latency().p99Millis(), 200),
                Target.below("PostgreSQL CPU per service JMS input vs per plain-JDBC ceiling input (x)",
                        rows.get(3).postgresMsPerInput() / rows.get(0).postgresMsPerInput(), 1.3));
        List<String> allNotes = new ArrayList<>();
        allNotes.add(String.format(Locale.ROOT, "ceiling: the rows computed before timing with AuditRecord.of; timed: ids "
                + "from the sequence, then JDBC batches (reWriteBatchedInserts), %d envelopes per transaction, one "
                + "connection; %,.0f rows/s (audit + claim_check)", JdbcCeiling.ENVELOPES_PER_TRANSACTION, ceiling.rowsPerSecond()));
        allNotes.add(String.format(Locale.ROOT, "full-pipeline ceiling: embedded Artemis (persistent journal, in-VM) in the "
                + "harness JVM, one core session taking %d messages per transaction, the domain code and AuditRecord.of per "
                + "message, the plain-JDBC ceiling's statements in one transaction, the results sent in the session, then "
                + "both commits; one thread, no duplicate check, retries, metrics or log line", PipelineCeiling.BATCH));
        allNotes.add("baseline: embedded Artemis (persistent journal, in-VM) and a DefaultCamelContext in the harness JVM; "
                + "one consumer, auto-acknowledge, one INSERT_VERIFICATION statement (d7c3f4c) and transaction per message");
        allNotes.add("service: backlog queued (or dropped) with the intake route stopped; timed from POST "
                + "/actuator/camelroutes/{id}/start to the last audit row committed (polled every 100 ms); every result "
                + "checked on verifier.effective, files in .done/");
        allNotes.add(String.format(Locale.ROOT, "latency: from hand-over (JMS send, file rename) to the result on "
                + "verifier.effective; JMS %,d inputs at %.0f/s, files %,d at %.0f/s; file latency includes the inbox's "
                + "poll delay and settle time", jms.latency().inputs(), jms.latency().achievedRate(), files.latency().inputs(),
                files.latency().achievedRate()));
        allNotes.add(String.format(Locale.ROOT, "Kafka: a Kafka %s broker (KRaft, one node, its own JVM) started after "
                + "the JMS and file paths, the input topic with %d partitions, a service of its own with its default "
                + "Kafka settings; latency from the produce call (not waiting for the acknowledgement) to the result's "
                + "poll on the output topic; %,d inputs at %.0f/s; the broker's CPU is in no row",
                AppInfoParser.getVersion(), KAFKA_PARTITIONS, kafka.latency().inputs(),
                kafka.latency().achievedRate()));
        allNotes.add("CPU cores: utime+stime over the drain window; the service process for its rows, the harness JVM for "
                + "the ceiling and the baseline; PostgreSQL's CPU in none. JIT % of CPU: the HotSpot compiler threads' share of "
                + "that CPU (/proc/<pid>/task), what the JVM still spends compiling rather than on the inputs. PostgreSQL cores: every "
                + "postgres process of the machine over the same window (ended backends included). CPU ms per input: "
                + "the row's CPU cores per input/s (the service's includes its embedded broker), and PostgreSQL's the same "
                + "way. Every row but the baseline's is timed after its warm-up rounds (see below). Peak RSS: "
                + "VmHWM of the service, reset before each drain");
        allNotes.addAll(notes.stream().distinct().toList());
        String service = "java -Xmx" + options.serviceHeap() + " -jar " + options.jar().getFileName() + ", "
                + (options.serviceProperties().isEmpty() ? "its default configuration" : "with " + options.serviceProperties());
        return new ThroughputReport(options.size(), options.seed(), started.toString(), secondsSince(started), machine,
                service, mix, rows, targets, allNotes, List.copyOf(problems));
    }

    private static Row serviceRow(String path, PathRun run, double ceiling, double baseline) {
        double rate = run.inputsPerSecond();
        return new Row(path, run.inputs(), run.drain().seconds(), rate, null, rate / ceiling, rate / baseline,
                run.latency().p50Millis(), run.latency().p99Millis(), run.drain().cpu().cores(),
                run.drain().cpu().compilerShare(), run.drain().cpu().postgresCores(), run.peakRssMib());
    }

    // -------------------------------------------------------------------------------------------------- memory

    private int memory(BenchEnvelopes workload, Path work) throws Exception {
        int count = options.memoryInputs();
        Mix mix = new Mix();
        log.line("memory check (%s), seed %d: %,d queued JMS messages, service with -Xmx%s", options.size(), options.seed(),
                count, options.serviceHeap());
        ServiceUnderTest.Drain drain;
        double peakRss;
        String machine;
        long rowsBefore;
        try (ServiceUnderTest service = new ServiceUnderTest(options, work.resolve("service"), options.serviceHeap())) {
            service.startHeld();
            machine = machine(BenchDatabase.serverVersion(service.sql()));
            log.line("service up as pid %d (database %s), intake routes held back", service.pid(), service.databaseName());
            long queueing = System.nanoTime();
            int nextReport = count / 10;
            for (int from = 0; from < count; from += Bench.SEND_CHUNK) {
                int to = Math.min(count, from + Bench.SEND_CHUNK);
                service.jms().send(ServiceUnderTest.INPUT_QUEUE, Bench.jmsInputs(workload, Bench.MEMORY_STREAM, from, to, mix::add));
                if (to >= nextReport) {
                    log.line("queued %,d of %,d", to, count);
                    nextReport += count / 10;
                }
            }
            log.line("%,d messages queued in %.1f s; starting %s", count, secondsSince(queueing), ServiceUnderTest.JMS_ROUTE);
            rowsBefore = service.auditRows();
            drain = service.drain(ServiceUnderTest.JMS_ROUTE, rowsBefore + count, options.drainTimeout());
            // not reset: the queued backlog sits in the service's own broker, which is part of what must fit
            peakRss = ProcessProbe.peakRssMib(service.pid());
            log.line("drained in %.1f s: %,.0f inputs/s, %.2f CPU cores, peak RSS %,.0f MiB", drain.seconds(),
                    count / drain.seconds(), drain.cpu().cores(), peakRss);
            BenchDatabase.Rows rows = service.rows();
            if (rows.audit() != count || rows.claimChecks() != mix.claimChecks()) {
                problems.add("rows: " + rows + ", expected " + count + " audit rows and " + mix.claimChecks() + " claim_check rows");
            }
            checkForwarded(service, count, "memory");
            service.assertAlive("after the drain");
            if (service.loggedOutOfMemory()) {
                problems.add("the service logged an OutOfMemoryError");
            }
            service.stop();
        }
        List<MemoryReport.Slice> slices = MemoryReport.slices(drain.samples(), rowsBefore, count);
        double lastToFirst = slices.get(9).inputsPerSecond() / slices.get(0).inputsPerSecond();
        MemoryReport report = new MemoryReport(options.size(), options.seed(), started.toString(), secondsSince(started),
                machine, "java -Xmx" + options.serviceHeap() + " -jar " + options.jar().getFileName()
                + (options.serviceProperties().isEmpty() ? "" : ", with " + options.serviceProperties()),
                mix.summary(), count, drain.seconds(), count / drain.seconds(), drain.cpu().cores(), peakRss, slices, lastToFirst,
                lastToFirst >= MemoryReport.KEEPS_UP, List.copyOf(problems));
        System.out.println();
        System.out.print(report.text());
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(started);
        log.line("results written to %s (and .md)", report.write(options.resultsDir(), stamp));
        return report.broken() ? 1 : 0;
    }

    // ------------------------------------------------------------------------------------------------- helpers

    private static String machine(String postgresVersion) {
        return Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version") + ", PostgreSQL "
                + postgresVersion;
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static double secondsSince(Instant instant) {
        return Duration.between(instant, Instant.now()).toMillis() / 1000.0;
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
