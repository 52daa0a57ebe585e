package io.claimguard.harness.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one harness run did and found: printed as a table, and written as JSON and Markdown to
 * {@code bench/results/faults-<timestamp>.{json,md}}.
 *
 * @param duplicatesAbsorbed inputs the service logged as {@code duplicate} (their bytes already had a row): the
 *     second copy of each identical pair, plus every input a kill caught between its audit commit and its
 *     acknowledgement. It shows that the kills hit the window the unique key is there for.
 * @param kafka the Kafka mode's offsets; null in the other modes
 */
record FaultReport(
        String size,
        long seed,
        String startedAt,
        double wallSeconds,
        String machine,
        Inputs inputs,
        Faults faults,
        Accounting.Outcomes outcomes,
        long duplicatesAbsorbed,
        boolean healthDownInEveryOutage,
        Kafka kafka,
        List<String> chainCheck,
        boolean passed,
        List<String> problems) {

    /** At most this many problems are listed; the counts in {@code outcomes} cover all of them. */
    static final int LISTED_PROBLEMS = 50;

    /**
     * @param unsupported Map, Stream and Object messages (topology runs), dead-lettered as message_type.unsupported
     * @param undecodable text messages no JMS client can decode (topology runs), counted among the rejected ones
     */
    record Inputs(int total, int jms, int files, int kafka, long valid, long distinctValid, long identicalPairs,
            long rejected, long poison, long unsupported, long undecodable) {
    }

    /**
     * @param instances instances at the start: 1 with the embedded broker, more on a standalone broker
     * @param brokerRestarts restarts of the standalone Artemis broker (topology mode) or of Kafka (Kafka mode)
     */
    record Faults(int instances, int kills, List<Kill> killLog, int outages, double secondsCut, List<Outage> outageLog,
            List<BrokerRestart> brokerRestarts, List<Added> added) {
    }

    /**
     * @param readinessDown some instance's readiness answered 503 while the broker was away
     * @param recoveredWithoutRestart every instance was ready again, with the same pid (with Kafka: and offsets were
     *     committed again)
     * @param secondsToReady from the broker's start until every instance was ready (and committing offsets)
     */
    record BrokerRestart(int number, double atProgress, boolean graceful, double secondsDown, boolean readinessDown,
            boolean recoveredWithoutRestart, double secondsToReady) {
    }

    /**
     * The Kafka mode's end: where the consumer group stands on each partition of the input topic.
     *
     * @param committedToEnd every partition's committed offset is its end offset: every record was taken for good
     */
    record Kafka(String inputTopic, List<Partition> partitions, boolean committedToEnd) {
    }

    /** @param committedOffset null when the group has committed none on the partition */
    record Partition(int partition, long endOffset, Long committedOffset) {

        /** No record of the partition is left to take (an empty one needs no commit). */
        boolean atEnd() {
            return endOffset == (committedOffset == null ? 0 : committedOffset);
        }
    }

    /** An instance started while the backlog drained. */
    record Added(int number, double atProgress, long pid, double secondsToReady) {
    }

    /**
     * @param atProgress share of the backlog's rows committed when the service was killed
     * @param secondsToReady from SIGKILL to readiness 200 of the restarted service
     * @param secondsToPartitionsMoving Kafka mode: from SIGKILL until every partition with records left had its offset
     *     committed again (by the restarted instance or another one: the session timeout's takeover); null otherwise,
     *     or when it did not happen in time
     */
    record Kill(int number, double atProgress, long killedPid, long restartedPid, double secondsToReady,
            Double secondsToPartitionsMoving) {
    }

    /**
     * @param healthPolls answers from {@code /actuator/health} received while the database was cut off
     * @param healthDown of those, how many were 503 (DOWN)
     * @param livenessUp liveness answered 200 whenever it was asked during the outage
     * @param recoveredWithoutRestart the same process was ready and committing rows again after the outage
     * @param secondsToRecover from restoring the database until health was 200 and rows were being committed
     */
    record Outage(int number, double atProgress, double seconds, int healthPolls, int healthDown, boolean livenessUp,
            boolean recoveredWithoutRestart, double secondsToRecover) {
    }

    String table() {
        Accounting.Outcomes o = outcomes;
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"size / seed", size + " / " + seed});
        if (faults.instances() > 1) {
            rows.add(new String[] {"topology", String.format(Locale.ROOT, kafka != null
                    ? "%d instances in one Kafka consumer group, %d added while draining"
                    : "%d instances on a standalone Artemis broker and one shared inbox, %d added while draining",
                    faults.instances(), faults.added().size())});
        }
        if (kafka != null && !faults.killLog().isEmpty()) {
            rows.add(new String[] {"partitions after kill -9", "every partition with records left committed again "
                    + faults.killLog().stream().map(kill -> kill.secondsToPartitionsMoving() == null ? "NOT"
                            : String.format(Locale.ROOT, "%.1f s", kill.secondsToPartitionsMoving()))
                            .collect(Collectors.joining(", "))
                    + " after the kill (session timeout 10 s)"});
        }
        rows.add(new String[] {"inputs", String.format(Locale.ROOT,
                "%,d (%s): %,d valid (%,d distinct, %,d identical %s pairs), %,d rejected, %,d poison%s",
                inputs.total(), kafka != null
                        ? String.format(Locale.ROOT, "Kafka records on %d partitions", kafka.partitions().size())
                        : String.format(Locale.ROOT, "%,d JMS, %,d files", inputs.jms(), inputs.files()),
                inputs.valid(), inputs.distinctValid(), inputs.identicalPairs(), kafka != null ? "record" : "JMS/file",
                inputs.rejected(), inputs.poison(), inputs.unsupported() == 0 ? ""
                        : String.format(Locale.ROOT, ", %,d Map/Stream/Object messages, %,d of the rejected undecodable text",
                                inputs.unsupported(), inputs.undecodable()))});
        rows.add(new String[] {"faults injected", String.format(Locale.ROOT,
                "%d x kill -9 (at %s of the backlog), %d outages of PostgreSQL (at %s), %.0f s cut in all",
                faults.kills(), shares(faults.killLog().stream().map(Kill::atProgress).toList()), faults.outages(),
                shares(faults.outageLog().stream().map(Outage::atProgress).toList()), faults.secondsCut())});
        rows.add(new String[] {"audited", String.format(Locale.ROOT,
                "%,d of %,d distinct valid inputs, exactly once (%,d audit rows, %,d claim_check rows, complete: %s)",
                o.audited(), inputs.distinctValid(), o.auditRows(), o.claimCheckRows(), yesNo(o.claimChecksComplete()))});
        rows.add(new String[] {"duplicates absorbed", String.format(Locale.ROOT,
                "%,d byte-identical deliveries made no new row (%,d second copies of the pairs, %,d %s)",
                duplicatesAbsorbed, inputs.identicalPairs(), Math.max(0, duplicatesAbsorbed - inputs.identicalPairs()),
                kafka != null ? "read again after a kill or a Kafka restart" : "redelivered after a kill")});
        rows.add(new String[] {"dead-lettered", String.format(Locale.ROOT,
                "%,d of %,d (%,d rejected, %,d processing_failed; %s), exact bytes: %s",
                o.deadLettered(), inputs.rejected() + inputs.poison() + inputs.unsupported(), o.deadLetteredRejected(),
                o.deadLetteredPoison(), kafka != null
                        ? String.format(Locale.ROOT, "%,d records on the dead-letter topic", o.dlqMessages())
                        : String.format(Locale.ROOT, "%,d on the DLQ, %,d in .error/", o.dlqMessages(), o.errorFiles()),
                yesNo(o.deadLetterBytesExact()))});
        rows.add(new String[] {"forwarded", kafka != null
                ? String.format(Locale.ROOT, "%,d of %,d audited (%,d results on the output topic, %,d of them redelivered)",
                        o.forwarded(), o.audited(), o.outputMessages(), o.reforwarded())
                : String.format(Locale.ROOT, "%,d of %,d audited (%,d output messages, %,d of them again after a crash;"
                        + " %,d outbox files)", o.forwarded(), o.audited(), o.outputMessages(), o.reforwarded(), o.outboxFiles())});
        if (kafka != null) {
            rows.add(new String[] {"offsets committed", String.format(Locale.ROOT, "%s at the end of %d of %d partitions (%s)",
                    yesNo(kafka.committedToEnd()), kafka.partitions().stream()
                            .filter(Partition::atEnd).count(),
                    kafka.partitions().size(), String.join(", ", kafka.partitions().stream()
                            .map(partition -> String.format(Locale.ROOT, "%s-%d: %s of %,d", kafka.inputTopic(),
                                    partition.partition(), partition.committedOffset() == null ? "none"
                                            : String.format(Locale.ROOT, "%,d", partition.committedOffset()),
                                    partition.endOffset()))
                            .toList()))});
        } else {
            rows.add(new String[] {"files", String.format(Locale.ROOT, "%,d in .done/, %,d in .error/, %,d left in the inbox",
                    o.doneFiles(), o.errorFiles(), o.leftInInbox())});
        }
        rows.add(new String[] {"lost", String.format(Locale.ROOT, "%,d", o.lost())});
        rows.add(new String[] {"duplicated audit rows", String.format(Locale.ROOT, "%,d", o.duplicatedAuditRows())});
        rows.add(new String[] {"other problems", String.format(Locale.ROOT, "%,d", o.otherProblems())});
        rows.add(new String[] {"health DOWN during outages", faults.outageLog().isEmpty() ? "n/a (no outage injected)"
                : yesNo(healthDownInEveryOutage) + " (503 in "
                + String.join(", ", faults.outageLog().stream()
                        .map(outage -> outage.healthDown() + " of " + outage.healthPolls() + " polls").toList())
                + "; recovered without restart: "
                + String.join(", ", faults.outageLog().stream().map(outage -> outage.recoveredWithoutRestart()
                        ? String.format(Locale.ROOT, "%.1f s after", outage.secondsToRecover()) : "NO").toList()) + ")"});
        if (!faults.brokerRestarts().isEmpty()) {
            rows.add(new String[] {restartsName(), String.join(", ", faults.brokerRestarts().stream()
                    .map(restart -> String.format(Locale.ROOT, "%s at %.0f%%, down %.0f s, readiness DOWN: %s, every instance"
                                    + " ready%s %.1f s after: %s", restart.graceful() ? "graceful" : "kill -9",
                            restart.atProgress() * 100, restart.secondsDown(), yesNo(restart.readinessDown()),
                            kafka != null ? " and committing offsets" : "", restart.secondsToReady(),
                            restart.recoveredWithoutRestart() ? "yes, same pids" : "NO"))
                    .toList())});
        }
        rows.add(new String[] {"verify-chain with the checkpoints", String.join("; ", chainCheck)});
        rows.add(new String[] {"wall time", String.format(Locale.ROOT, "%.0f s", wallSeconds)});
        rows.add(new String[] {"machine", machine});
        rows.add(new String[] {"result", passed ? "PASS" : "FAIL"});
        return markdownTable(rows);
    }

    String markdown() {
        StringBuilder text = new StringBuilder("# ClaimGuard fault harness, " + size + " run, " + startedAt + "\n\n");
        text.append(table()).append('\n');
        text.append("\n## Kills\n\n| # | at backlog | killed pid | restarted pid | kill to ready | kill to every partition"
                + " committing again |\n|---|---|---|---|---|---|\n");
        for (Kill kill : faults.killLog()) {
            text.append(String.format(Locale.ROOT, "| %d | %.0f%% | %d | %d | %.1f s | %s |%n", kill.number(),
                    kill.atProgress() * 100, kill.killedPid(), kill.restartedPid(), kill.secondsToReady(),
                    kill.secondsToPartitionsMoving() == null ? "-"
                            : String.format(Locale.ROOT, "%.1f s", kill.secondsToPartitionsMoving())));
        }
        text.append("\n## Outages\n\n| # | at backlog | cut | health polls 503 | liveness 200 | recovered without restart |\n"
                + "|---|---|---|---|---|---|\n");
        for (Outage outage : faults.outageLog()) {
            text.append(String.format(Locale.ROOT, "| %d | %.0f%% | %.1f s | %d/%d | %s | %s |%n", outage.number(),
                    outage.atProgress() * 100, outage.seconds(), outage.healthDown(), outage.healthPolls(),
                    yesNo(outage.livenessUp()), outage.recoveredWithoutRestart()
                            ? String.format(Locale.ROOT, "yes, %.1f s after", outage.secondsToRecover()) : "NO"));
        }
        if (!faults.brokerRestarts().isEmpty()) {
            text.append("\n## ").append(Character.toUpperCase(restartsName().charAt(0))).append(restartsName().substring(1))
                    .append("\n\n| # | at backlog | how | away | readiness 503 | ready again")
                    .append(kafka != null ? " and committing" : "").append(" | same pids |\n"
                            + "|---|---|---|---|---|---|---|\n");
            for (BrokerRestart restart : faults.brokerRestarts()) {
                text.append(String.format(Locale.ROOT, "| %d | %.0f%% | %s | %.1f s | %s | %.1f s after the start | %s |%n",
                        restart.number(), restart.atProgress() * 100, restart.graceful() ? "graceful" : "kill -9",
                        restart.secondsDown(), yesNo(restart.readinessDown()), restart.secondsToReady(),
                        yesNo(restart.recoveredWithoutRestart())));
            }
        }
        if (!problems.isEmpty()) {
            text.append("\n## Problems\n\n");
            problems.forEach(problem -> text.append("- ").append(problem).append('\n'));
        }
        return text.toString();
    }

    /** Writes {@code faults-<stamp>.json} and {@code .md}; returns the JSON file. */
    Path write(Path directory, String stamp) throws IOException {
        Files.createDirectories(directory);
        Path json = directory.resolve("faults-" + stamp + ".json");
        Files.writeString(json, JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(this)
                + "\n", StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("faults-" + stamp + ".md"), markdown(), StandardCharsets.UTF_8);
        return json;
    }

    private String restartsName() {
        return kafka != null ? "Kafka restarts" : "broker restarts";
    }

    private static String shares(List<Double> shares) {
        if (shares.isEmpty()) {
            return "-";
        }
        return String.join(", ", shares.stream().map(share -> String.format(Locale.ROOT, "%.0f%%", share * 100)).toList());
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }

    private static String markdownTable(List<String[]> rows) {
        StringBuilder table = new StringBuilder("| | |\n|---|---|\n");
        for (String[] row : rows) {
            table.append("| ").append(row[0]).append(" | ").append(row[1].replace("|", "\\|")).append(" |\n");
        }
        return table.toString();
    }
}
