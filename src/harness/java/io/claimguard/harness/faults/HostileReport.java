package io.claimguard.harness.faults;

import io.claimguard.harness.faults.HostileInputs.Channel;
import io.claimguard.harness.faults.HostileInputs.Expect;
import io.claimguard.harness.faults.HostileInputs.HostileInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one hostile run did and found: printed as a table, written as JSON and Markdown to
 * {@code bench/results/faults-<timestamp>.{json,md}} beside the other fault runs.
 */
record HostileReport(
        String size,
        long seed,
        String startedAt,
        double wallSeconds,
        String machine,
        Inputs inputs,
        List<Kill> killLog,
        HostileAccounting.Outcomes outcomes,
        HostileAccounting.Logs logs,
        boolean passed,
        List<String> problems,
        int problemCount) {

    static final int LISTED_PROBLEMS = 50;

    /** A kill's figures, without what the accounting kept of the moment. */
    record Kill(int number, double atShare, long killedPid, long restartedPid, double secondsToReady) {

        static List<Kill> of(List<HostileAccounting.Kill> kills) {
            return kills.stream().map(kill -> new Kill(kill.number(), kill.atShare(), kill.killedPid(), kill.restartedPid(),
                    kill.secondsToReady())).toList();
        }
    }

    /**
     * @param names distinct file names generated (late copies reuse theirs)
     * @param nameCases files per kind of name
     * @param bodyCases inputs per kind of body
     * @param nameBytesMin the shortest name, in bytes
     * @param controlCharacters distinct control characters in names
     */
    record Inputs(int total, long files, long names, int lateCopies, long jms, long ignored, long setAside,
            Map<String, Long> nameCases, Map<String, Long> bodyCases, int nameBytesMin, int nameBytesMax,
            long randomNameLengths, long controlCharacters) {

        static Inputs of(HostileInputs generated) {
            List<HostileInput> files = generated.inputs().stream().filter(input -> input.channel() == Channel.FILE).toList();
            Map<String, Long> nameCases = new TreeMap<>(files.stream()
                    .collect(Collectors.groupingBy(HostileInput::nameCase, Collectors.counting())));
            if (!generated.lateCopies().isEmpty()) {
                nameCases.put(generated.lateCopies().get(0).nameCase(), (long) generated.lateCopies().size());
            }
            Map<String, Long> bodyCases = new TreeMap<>(generated.inputs().stream()
                    .filter(input -> input.expect() != Expect.SET_ASIDE)
                    .collect(Collectors.groupingBy(HostileInput::bodyCase, Collectors.counting())));
            long randomLengths = files.stream().filter(file -> file.nameCase().startsWith("random bytes"))
                    .mapToInt(file -> file.name().length).distinct().count();
            long controls = files.stream().flatMapToInt(file -> new String(file.name(), StandardCharsets.ISO_8859_1).chars())
                    .filter(c -> c < 0x20 || c == 0x7f).distinct().count();
            return new Inputs(generated.inputs().size() + generated.lateCopies().size(), generated.files(), files.size(),
                    generated.lateCopies().size(), generated.inputs().size() - files.size(), generated.count(Expect.IGNORED),
                    generated.count(Expect.SET_ASIDE), nameCases, bodyCases,
                    files.stream().mapToInt(file -> file.name().length).min().orElse(0),
                    files.stream().mapToInt(file -> file.name().length).max().orElse(0), randomLengths, controls);
        }
    }

    String table() {
        StringBuilder table = new StringBuilder();
        rows().forEach(row -> table.append(String.format(Locale.ROOT, "%-34s %s%n", row[0], row[1])));
        return table.toString();
    }

    private List<String[]> rows() {
        HostileAccounting.Outcomes o = outcomes;
        HostileAccounting.Logs l = logs;
        List<String[]> rows = new ArrayList<>();
        rows.add(row("size / seed", size + " / " + seed));
        rows.add(row("inputs", String.format(Locale.ROOT, "%,d (%,d files, %,d JMS messages); %,d file names generated,"
                + " %d to %d bytes (%d lengths of random names), %d control characters; %,d left alone by name, %,d links"
                + " and FIFOs; %d late copies of done files", inputs.total(), inputs.files(), inputs.jms(), inputs.names(),
                inputs.nameBytesMin(), inputs.nameBytesMax(), inputs.randomNameLengths(), inputs.controlCharacters(),
                inputs.ignored(), inputs.setAside(), inputs.lateCopies())));
        rows.add(row("names", inputs.nameCases().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", "))));
        rows.add(row("bodies", inputs.bodyCases().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", "))));
        rows.add(row("kills", killLog.isEmpty() ? "none" : killLog.stream().map(kill -> String.format(Locale.ROOT,
                "kill -9 at %.0f%% (pid %d, ready again %.1f s later)", kill.atShare() * 100, kill.killedPid(),
                kill.secondsToReady())).collect(Collectors.joining(", "))));
        rows.add(row("distinct bodies", String.format(Locale.ROOT, "%,d: %,d audited (%,d audit rows), %,d dead-lettered"
                + " (%,d dead_letter rows in all)", o.bodies(), o.audited(), o.auditRows(), o.deadLettered(), o.deadLetterRows())));
        rows.add(row("forwarded", String.format(Locale.ROOT, "%,d output messages; %,d not forwarded, %,d again after a"
                + " kill (at-least-once), re-forwarded for a file: %,d", o.outputMessages(), o.notForwarded(),
                o.forwardedAgainAfterKill(), o.reforwardedForFiles())));
        rows.add(row("files ended", String.format(Locale.ROOT, "%,d in .done/, %,d in .error/; not ended: %,d, ended"
                + " twice: %,d, left in the inbox: %,d, left alone as the docs say: %,d", o.doneFiles(), o.errorFiles(),
                o.filesNotEnded(), o.filesEndedTwice(), o.leftInInbox(), o.ignoredLeftAlone())));
        rows.add(row("links and FIFOs", String.format(Locale.ROOT, "%,d set aside (%,d FIFOs in .error/); outside files"
                + " read or changed: %,d", o.setAside(), o.fifosSetAside(), o.outsideFilesRead())));
        rows.add(row("outbox", String.format(Locale.ROOT, "%,d files, %,d names starting with a dot", o.outboxFiles(),
                o.outboxHiddenNames())));
        rows.add(row("log lines", String.format(Locale.ROOT, "%,d in %d minutes; worst minute %s UTC: %,d lines for %,d"
                + " inputs ended (bound %,d = %d per input + %d); at most %,d lines beyond %d per input; minutes over the"
                + " bound: %d; %,d WARN, %,d entries left alone named; %,d stack trace lines, %,d lines split by an input's"
                + " name", l.lines(),
                l.minutes(), l.worstMinute(), l.worstLines(), l.worstEnded(), l.worstBound(),
                HostileOptions.LOG_LINES_PER_INPUT, l.allowance(), l.worstAboveInputs(), HostileOptions.LOG_LINES_PER_INPUT,
                l.minutesOverBound(), l.warnLines(), l.leftAloneLines(), l.stackTraceLines(), l.splitLines())));
        rows.add(row("lost", Long.toString(o.lost())));
        rows.add(row("duplicated rows", Long.toString(o.duplicatedRows())));
        rows.add(row("other problems", Long.toString(o.otherProblems())));
        rows.add(row("wall time", String.format(Locale.ROOT, "%.0f s", wallSeconds)));
        rows.add(row("machine", machine));
        rows.add(row("result", passed ? "PASS" : "FAIL (" + problemCount + " problems)"));
        return rows;
    }

    private static String[] row(String name, String value) {
        return new String[] {name, value};
    }

    /** Writes {@code faults-<stamp>.json} and {@code .md}; returns the JSON file. */
    Path write(Path directory, String stamp) throws IOException {
        Files.createDirectories(directory);
        Path json = directory.resolve("faults-" + stamp + ".json");
        Files.writeString(json, JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(this)
                + "\n", StandardCharsets.UTF_8);
        StringBuilder markdown = new StringBuilder("# ClaimGuard fault harness, " + size + " run, " + startedAt + "\n\n| | |\n|---|---|\n");
        rows().forEach(row -> markdown.append("| ").append(row[0]).append(" | ").append(row[1].replace("|", "\\|")).append(" |\n"));
        if (!problems.isEmpty()) {
            markdown.append("\n## Problems (").append(problemCount).append(")\n\n");
            problems.forEach(problem -> markdown.append("- ").append(problem.replace("\n", "\\n")).append('\n'));
        }
        Files.writeString(directory.resolve("faults-" + stamp + ".md"), markdown, StandardCharsets.UTF_8);
        return json;
    }
}
