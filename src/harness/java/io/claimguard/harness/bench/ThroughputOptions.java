package io.claimguard.harness.bench;

import static io.claimguard.testkit.HarnessArguments.positive;
import static io.claimguard.testkit.HarnessArguments.value;

import io.claimguard.testkit.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one throughput harness run does. The full run (the default) and {@code --quick} (a check that the harness
 * works, for development) differ in size only; every figure can be overridden on the command line.
 *
 * @param size {@code full}, {@code quick} or {@code custom} (when a size was overridden)
 * @param memory run the memory check ({@code --memory}) instead of the throughput comparison
 * @param jmsInputs envelopes queued for the JMS drain (and written by the ceiling and the baseline)
 * @param fileInputs files dropped for the file drain
 * @param memoryInputs messages queued for the memory check
 * @param latencyWindow how long each latency measurement sends inputs at half the drain rate
 * @param drainTimeout how long one drain may take before the run gives up
 * @param seed seeds the envelopes, so that a run can be repeated
 * @param jar the service jar, run with {@code java -jar}
 * @param resultsDir where the JSON and Markdown result files are written
 * @param keepWork keep the temporary inbox, outbox, journals and service logs after a sound run (a broken run always
 *     keeps them); the databases are dropped in any case
 * @param serviceHeap the service's {@code -Xmx}
 * @param warmUpInputs JMS envelopes (and a fifth as many files) of one warm-up round, run through the service (and
 *     written by each ceiling) before the measured drains
 * @param warmUpRounds at most this many warm-up rounds: rounds go on until the JIT compiler's share of a round's CPU
 *     is under {@link #STEADY_JIT_SHARE}
 * @param serviceJvmOptions extra options for the service JVM, e.g. to record a flight recording
 * @param serviceProperties extra {@code --name=value} service properties, e.g. to tune concurrency
 */
record ThroughputOptions(
        String size,
        boolean memory,
        int jmsInputs,
        int fileInputs,
        int memoryInputs,
        int warmUpInputs,
        int warmUpRounds,
        Duration latencyWindow,
        Duration drainTimeout,
        long seed,
        Path jar,
        Path resultsDir,
        boolean keepWork,
        String serviceHeap,
        List<String> serviceJvmOptions,
        Map<String, String> serviceProperties) {

    /** A path is warm when its JIT compiler threads take less than this share of its CPU over a round. */
    static final double STEADY_JIT_SHARE = 0.05;

    static final String USAGE = """
            usage: ThroughputHarness [--quick] [--memory] [--jms N] [--files N] [--memory-messages N] [--warm-up N]
                                     [--warm-up-rounds N]
                                     [--latency-seconds S] [--drain-timeout-seconds S] [--seed X]
                                     [--service-heap SIZE] [--service-property name=value]...
                                     [--service-jvm-option OPTION]... (e.g. -XX:StartFlightRecording=...)
                                     [--jar target/claimguard-*.jar] [--results bench/results] [--keep-work]
              default (full):  50000 JMS envelopes (the baseline 5000), 10000 files, 20 s of latency per path,
                               after warm-up rounds of 6000 JMS envelopes and 1200 files through the service (each
                               ceiling: 6000 envelopes) until the JIT's share of a round's CPU is under 5 %, at most
                               15 rounds (--warm-up 0: none)
              --quick:         1000 JMS envelopes, 500 files, 5 s of latency per path, warm-up 1000, at most 2 rounds
              --memory:        100000 queued JMS messages drained by a service with -Xmx256m (--quick: 5000)
            """;

    static ThroughputOptions parse(String[] args) {
        boolean quick = List.of(args).contains("--quick");
        boolean memory = List.of(args).contains("--memory");
        String size = quick ? "quick" : "full";
        int jms = quick ? 1_000 : 50_000;
        int files = quick ? 500 : 10_000;
        int memoryMessages = quick ? 5_000 : 100_000;
        int warmUp = quick ? 1_000 : 6_000;
        int warmUpRounds = quick ? 2 : 15;
        long latencySeconds = quick ? 5 : 20;
        long drainSeconds = 1_800;
        long seed = System.nanoTime();
        Path jar = null;
        Path results = Path.of("bench/results");
        boolean keepWork = false;
        // the memory check is -Xmx256m; the throughput run keeps the fault harness's bounded heap
        String heap = memory ? "256m" : "512m";
        Map<String, String> properties = new LinkedHashMap<>();
        List<String> jvmOptions = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--quick", "--memory" -> { }
                case "--jms" -> { jms = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--files" -> { files = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--warm-up" -> { warmUp = Integer.parseInt(value(args, ++i, option, USAGE)); size = "custom"; }
                case "--warm-up-rounds" -> { warmUpRounds = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--memory-messages" -> { memoryMessages = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--latency-seconds" -> { latencySeconds = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--drain-timeout-seconds" -> drainSeconds = positive(option, value(args, ++i, option, USAGE));
                case "--seed" -> seed = Long.parseLong(value(args, ++i, option, USAGE));
                case "--service-heap" -> heap = value(args, ++i, option, USAGE);
                case "--service-property" -> {
                    String property = value(args, ++i, option, USAGE);
                    int equals = property.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--service-property needs name=value, got " + property);
                    }
                    properties.put(property.substring(0, equals), property.substring(equals + 1));
                }
                case "--service-jvm-option" -> jvmOptions.add(value(args, ++i, option, USAGE));
                case "--jar" -> jar = Path.of(value(args, ++i, option, USAGE));
                case "--results" -> results = Path.of(value(args, ++i, option, USAGE));
                case "--keep-work" -> keepWork = true;
                case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (!heap.matches("\\d+[kKmMgG]?")) {
            throw new IllegalArgumentException("--service-heap takes an -Xmx size such as 256m, got " + heap);
        }
        if (warmUp < 0) {
            throw new IllegalArgumentException("--warm-up must be 0 or more, got " + warmUp);
        }
        return new ThroughputOptions(size, memory, jms, files, memoryMessages, warmUp, warmUpRounds, Duration.ofSeconds(latencySeconds),
                Duration.ofSeconds(drainSeconds), seed, jar != null ? jar : ServiceProcess.findJar(), results, keepWork, heap,
                List.copyOf(jvmOptions), Collections.unmodifiableMap(properties));
    }
}
