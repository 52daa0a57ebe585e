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
 * @param size {@code reduced}, {@code full} or {@code custom} (when a figure was overridden), with the mode's name
 * @param inputs how many inputs, half by JMS and half as files (in the Kafka mode all of them Kafka records)
 * @param kills how many times the service is killed with SIGKILL and restarted
 * @param outages how many times the service is cut off from PostgreSQL
 * @param outageLength how long each outage lasts
 * @param drainTimeout how long the backlog may take to drain after the last fault before the run gives up
 * @param seed seeds every random choice (input order, fault moments), so that a run can be repeated
 * @param jar the service jar, run with {@code java -jar}
 * @param resultsDir where the JSON and Markdown result files are written
 * @param keepWork keep the temporary inbox, outbox, journal and logs also after a passing run
 * @param instances 1: the service alone with its embedded broker; more: the topology mode, that many instances on a
 *     standalone Artemis broker and one shared inbox, with protocol-level poison in the backlog
 * @param addedInstances instances started while the backlog drains (topology mode)
 * @param brokerRestarts restarts of the standalone broker while the backlog drains, graceful and SIGKILL in turn: the
 *     Artemis broker in the topology mode, the Kafka broker in the Kafka mode
 * @param kafka the Kafka mode: the service alone with its Kafka entry on, every input a record on the Kafka input topic
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
        boolean keepWork,
        int instances,
        int addedInstances,
        int brokerRestarts,
        boolean kafka) {

    /** Several instances on the standalone Artemis broker (the Kafka mode with several instances is not this). */
    boolean topology() {
        return instances > 1 && !kafka;
    }

    /** Several instances, in either mode: the backlog is fed in slices and kills hit a random instance. */
    boolean severalInstances() {
        return instances > 1;
    }

    static final String USAGE = """
            usage: FaultHarness [--full] [--topology | --kafka] [--inputs N] [--kills K] [--outages O]
                                [--outage-seconds D] [--instances I] [--added-instances A] [--broker-restarts B]
                                [--drain-timeout-seconds S] [--seed X] [--jar target/claimguard-*.jar]
                                [--results bench/results] [--keep-work]
              default (reduced, for CI): 1000 inputs, 2 kills, 2 outages of 8 s
              --full:                    10000 inputs, 5 kills, 2 outages of 30 s
              --topology:                3 instances on a standalone Artemis broker and a shared inbox, 1 instance
                                         added and 2 broker restarts (graceful, then kill -9) on top; kills hit a
                                         random instance; Map, Stream and Object messages in the backlog
                                         (reduced: 4000 inputs, 2 kills, 1 outage of 8 s; with --full as above)
              --kafka:                   the service with its Kafka entry on a Kafka broker, every input a Kafka
                                         record; 2 Kafka restarts (graceful, then kill -9) on top
                                         (reduced: 2000 inputs, 2 kills, 1 outage of 8 s; with --full as above)
              --kafka --instances I:     I instances in one consumer group (each with its own embedded Artemis
                                         broker), 1 instance added on top; kills hit a random instance, so that
                                         partitions move between them while the backlog drains
              --hostile:                 hostile names and bodies, links, FIFOs; options: --hostile --help
            """;

    static HarnessOptions parse(String[] args) {
        boolean full = List.of(args).contains("--full");
        boolean topology = List.of(args).contains("--topology");
        boolean kafka = List.of(args).contains("--kafka");
        if (topology && kafka) {
            throw new IllegalArgumentException("--topology and --kafka are two modes: choose one\n" + USAGE);
        }
        String size = (full ? "full" : "reduced") + (topology ? " topology" : kafka ? " kafka" : "");
        int instances = topology ? 3 : 1;
        int addedInstances = topology ? 1 : 0;
        int brokerRestarts = topology || kafka ? 2 : 0;
        // three instances, or Kafka's batches of 100, drain a backlog several times faster: the reduced run needs more
        // inputs, so that its faults hit a backlog still draining
        int inputs = full ? 10_000 : topology ? 4_000 : kafka ? 2_000 : 1_000;
        int kills = full ? 5 : 2;
        int outages = full || !(topology || kafka) ? 2 : 1;
        long outageSeconds = full ? 30 : 8;
        long drainSeconds = full ? 900 : 180;
        long seed = System.nanoTime();
        Path jar = null;
        Path results = Path.of("bench/results");
        boolean keepWork = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--full", "--topology", "--kafka" -> { }
                case "--instances" -> { instances = positive(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--added-instances" -> { addedInstances = notNegative(option, value(args, ++i, option, USAGE)); size = "custom"; }
                case "--broker-restarts" -> { brokerRestarts = notNegative(option, value(args, ++i, option, USAGE)); size = "custom"; }
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
        if (kafka && instances > 1 && !List.of(args).contains("--added-instances")) {
            // partitions move between instances also when one joins, not only when one dies
            addedInstances = 1;
        }
        if (kafka && instances > 1) {
            size = (full ? "full" : "reduced") + " kafka, " + instances + " instances";
        }
        if (inputs < 100) {
            // the mix (rejected, poison, identical pairs) needs a few of each on both channels
            throw new IllegalArgumentException("--inputs must be at least 100, got " + inputs);
        }
        return new HarnessOptions(size, inputs, kills, outages, Duration.ofSeconds(outageSeconds),
                Duration.ofSeconds(drainSeconds), seed, jar != null ? jar : ServiceProcess.findJar(), results, keepWork,
                instances, addedInstances, brokerRestarts, kafka);
    }
}
