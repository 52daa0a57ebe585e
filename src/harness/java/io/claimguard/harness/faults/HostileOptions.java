package io.claimguard.harness.faults;

import static io.claimguard.testkit.HarnessArguments.notNegative;
import static io.claimguard.testkit.HarnessArguments.positive;
import static io.claimguard.testkit.HarnessArguments.value;

import io.claimguard.testkit.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one hostile run does ({@code --hostile}): the reduced run for CI, or {@code --full}.
 *
 * @param size {@code reduced hostile}, {@code full hostile} or {@code custom hostile}
 * @param inputs how many inputs, files and JMS messages mixed (late copies of long-named files come on top)
 * @param kills SIGKILLs of the service while the inputs drain, each followed by a restart
 * @param logAllowance log lines a minute may hold beyond two per input that ended in it
 * @param seed seeds every choice (names, bodies, order, the kill's moment), so that a run can be repeated
 */
record HostileOptions(String size, int inputs, int kills, int logAllowance, Duration drainTimeout, long seed, Path jar,
        Path resultsDir, boolean keepWork) {

    /**
     * Lines per input a minute may hold: the summary line of an audited input, or the WARN of a rejected one and its
     * dead-letter line.
     */
    static final int LOG_LINES_PER_INPUT = 2;

    static final String USAGE = """
            usage: FaultHarness --hostile [--full] [--inputs N] [--kills K] [--log-allowance L]
                                [--drain-timeout-seconds S] [--seed X] [--jar target/claimguard-*.jar]
                                [--results bench/results] [--keep-work]
              --hostile (reduced, for CI): 1500 hostile inputs (files with hostile names, links, FIFOs and JMS
                                         messages; valid, fuzzed, random and oversized bodies), 1 kill
              --hostile --full:          10000 inputs, 2 kills
              the log bound: in every minute at most 2 lines per input that ended in it, plus L (default 300)
            """;

    static boolean asked(String[] args) {
        return List.of(args).contains("--hostile");
    }

    static HostileOptions parse(String[] args) {
        boolean full = List.of(args).contains("--full");
        String size = full ? "full hostile" : "reduced hostile";
        int inputs = full ? 10_000 : 1_500;
        int kills = full ? 2 : 1;
        int logAllowance = 300;
        long drainSeconds = full ? 900 : 240;
        long seed = System.nanoTime();
        Path jar = null;
        Path results = Path.of("bench/results");
        boolean keepWork = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--hostile", "--full" -> { }
                case "--inputs" -> { inputs = positive(option, value(args, ++i, option, USAGE)); size = "custom hostile"; }
                case "--kills" -> { kills = notNegative(option, value(args, ++i, option, USAGE)); size = "custom hostile"; }
                case "--log-allowance" -> logAllowance = notNegative(option, value(args, ++i, option, USAGE));
                case "--drain-timeout-seconds" -> drainSeconds = positive(option, value(args, ++i, option, USAGE));
                case "--seed" -> seed = Long.parseLong(value(args, ++i, option, USAGE));
                case "--jar" -> jar = Path.of(value(args, ++i, option, USAGE));
                case "--results" -> results = Path.of(value(args, ++i, option, USAGE));
                case "--keep-work" -> keepWork = true;
                case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                default -> throw new IllegalArgumentException("unknown option " + option + " in the hostile mode\n" + USAGE);
            }
        }
        return new HostileOptions(size, inputs, kills, logAllowance, Duration.ofSeconds(drainSeconds), seed,
                jar != null ? jar : ServiceProcess.findJar(), results, keepWork);
    }
}
