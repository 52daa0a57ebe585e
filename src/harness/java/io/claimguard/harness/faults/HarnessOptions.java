package io.claimguard.harness.faults;

import static io.claimguard.testkit.HarnessArguments.notNegative;
import static io.claimguard.testkit.HarnessArguments.positive;
import static io.claimguard.testkit.HarnessArguments.value;

import io.claimguard.testkit.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one harness run does. The reduced run (the default, for CI) and {@code --full} (the run) differ in
 * size only; every figure can be overridden on the command line.
 *
 * @param size {@code reduced}, {@code full} or {@code custom} (when a figure was overridden)
 * @param inputs how many inputs, half by JMS and half as files
 * @param kills how many times the service is killed with SIGKILL and restarted
 * @param outages how many times the service is cut off from PostgreSQL
 * @param outageLength how long each outage lasts
 * @param drainTimeout how long the backlog may take to drain after the last fault before the run gives up
 * @param seed seeds every random choice (input order, fault moments), so that a run can be repeated
 * @param jar the service jar, run with {@code java -jar}
 * @param resultsDir where the JSON and Markdown result files are written
 * @param keepWork keep the temporary inbox, outbox, journal and logs also after a passing run
 */
public record HarnessOptions(
        String size,
        int inputs,
        int kills,
        int outages,
        Duration outageLength,
        Duration drainTimeout,
        long seed,
        Path jar,
        Path resultsDir,
        boolean keepWork) {

    static final String USAGE = """
            usage: FaultHarness [--full] [--inputs N] [--kills K] [--outages O] [--outage-seconds D]
                                [--drain-timeout-seconds S] [--seed X] [--jar target/claimguard-*.jar]
                                [--results bench/results] [--keep-work]
              default (reduced, for CI): 1000 inputs, 2 kills, 2 outages of 8 s
              --full:                    10000 inputs, 5 kills, 2 outages of 30 s
            """;

    static HarnessOptions parse(String[] args) {
        boolean full = List.of(args).contains("--full");
        String size = full ? "full" : "reduced";
        int inputs = full ? 10_000 : 1_000;
        int kills = full ? 5 : 2;
        int outages = 2;
        long outageSeconds = full ? 30 : 8;
        long drainSeconds = full ? 900 : 180;
        long seed = System.nanoTime();
        Path jar = null;
        Path results = Path.of("bench/results");
        boolean keepWork = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--full" -> { }
                case "--inputs" -> { inputs = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--kills" -> { kills = notNegative(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--outages" -> { outages = notNegative(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--outage-seconds" -> { outageSeconds = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--drain-timeout-seconds" -> drainSeconds = positive(option, value(args, ++i, option, USAGE));
                case "--seed" -> seed = Long.parseLong(value(args, ++i, option, USAGE));
                case "--jar" -> jar = Path.of(value(args, ++i, option, USAGE));
                case "--results" -> results = Path.of(value(args, ++i, option, USAGE));
                case "--keep-work" -> keepWork = true;
                case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (inputs < 100) {
            // the mix (rejected, poison, identical pairs) needs a few of each on both channels
            throw new IllegalArgumentException("--inputs must be at least 100, got " + inputs);
        }
        return new HarnessOptions(size, inputs, kills, outages, Duration.ofSeconds(outageSeconds),
                Duration.ofSeconds(drainSeconds), seed, jar != null ? jar : ServiceProcess.findJar(), results, keepWork);
    }
}
