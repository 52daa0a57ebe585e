package io.claimguard.harness.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One throughput run side by side: the ceiling, the baseline and the service's two paths, with the ratios and
 * the targets. Printed as a table and written as {@code bench/results/throughput-<stamp>.{json,md}}.
 *
 * @param rows ceiling, baseline, service JMS, service file drop, in that order
 * @param notes how each figure was taken, printed under the table
 * @param problems what makes the run broken (lost inputs, results missing); empty for a sound run
 */
record ThroughputReport(
        String size,
        long seed,
        String startedAt,
        double wallSeconds,
        String machine,
        String service,
        BenchEnvelopes.Summary workload,
        List<Row> rows,
        List<Target> targets,
        List<String> notes,
        List<String> problems) {

    /**
     * One line of the table; a null figure was not measured for that row.
     *
     * @param cpuCores CPU used over the drain, as cores: the service process for the service rows, the harness's
     *     JVM (which runs the ceiling's JDBC client, or the baseline's broker and Camel) for the others;
     *     PostgreSQL's own CPU is in none of them
     */
    record Row(String path, long inputs, double seconds, double inputsPerSecond, Double rowsPerSecond, Double toCeiling,
            Double toBaseline, Double p50Millis, Double p99Millis, Double cpuCores, Double jitShare, Double postgresCores,
            Double peakRssMib) {

        /** The row's process, in CPU milliseconds per input. */
        Double msPerInput() {
            return cpuCores == null ? null : cpuCores * 1000 / inputsPerSecond;
        }

        /** PostgreSQL, in CPU milliseconds per input. */
        Double postgresMsPerInput() {
            return postgresCores == null ? null : postgresCores * 1000 / inputsPerSecond;
        }
    }

    /**
     * A target of the issue: PASS or MISS, never a failed run.
     *
     * @param kind a share of another path ({@code 50%}), a multiple of it ({@code 8x}), or a bound to stay below
     */
    record Target(String name, double measured, double required, Kind kind, boolean met) {

        enum Kind { SHARE, MULTIPLE, BELOW }

        static Target share(String name, double measured, double required) {
            return new Target(name, measured, required, Kind.SHARE, measured >= required);
        }

        static Target multiple(String name, double measured, double required) {
            return new Target(name, measured, required, Kind.MULTIPLE, measured >= required);
        }

        /** A figure that must stay below a bound (a latency in milliseconds). */
        static Target below(String name, double measured, double bound) {
            return new Target(name, measured, bound, Kind.BELOW, measured < bound);
        }

        String format(double value) {
            return switch (kind) {
                case MULTIPLE -> String.format(Locale.ROOT, "%.1fx", value);
                case SHARE -> String.format(Locale.ROOT, "%.0f%%", value * 100);
                // a latency in milliseconds, or a ratio such as 1.3
                case BELOW -> String.format(Locale.ROOT, required < 10 ? "%.2f" : "%,.0f", value);
            };
        }

        String requirement() {
            return (kind == Kind.BELOW ? "needs below " : "needs at least ") + format(required);
        }
    }

    boolean broken() {
        return !problems.isEmpty();
    }

    String table() {
        StringBuilder text = new StringBuilder();
        text.append("| path | inputs | seconds | inputs/s | x ceiling | x baseline | p50 ms | p99 ms | CPU cores "
                + "| JIT % of CPU | PostgreSQL cores | CPU ms per input | PostgreSQL CPU ms per input | peak RSS MB |\n");
        text.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            text.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %,.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    row.path(), row.inputs(), row.seconds(), row.inputsPerSecond(), ratio(row.toCeiling()),
                    ratio(row.toBaseline()), figure(row.p50Millis(), "%,.0f"), figure(row.p99Millis(), "%,.0f"),
                    figure(row.cpuCores(), "%.2f"), figure(row.jitShare() == null ? null : row.jitShare() * 100, "%.0f"),
                    figure(row.postgresCores(), "%.2f"), figure(row.msPerInput(), "%.2f"),
                    figure(row.postgresMsPerInput(), "%.2f"), figure(row.peakRssMib(), "%,.0f")));
        }
        return text.toString();
    }

    String targetLines() {
        StringBuilder text = new StringBuilder();
        for (Target target : targets) {
            text.append(String.format(Locale.ROOT, "- %s: %s (%s) **%s**%n", target.name(),
                    target.format(target.measured()), target.requirement(), target.met() ? "PASS" : "MISS"));
        }
        return text.toString();
    }

    String summary() {
        List<String> lines = new ArrayList<>();
        lines.add("size / seed: " + size + " / " + seed);
        lines.add("workload: " + workload.describe());
        lines.add("service: " + service);
        lines.add("machine: " + machine);
        lines.add(String.format(Locale.ROOT, "wall time: %.0f s", wallSeconds));
        lines.add("result: " + (broken() ? "BROKEN (" + problems.size() + " problems)" : "complete"));
        return String.join("\n", lines) + "\n";
    }

    String text() {
        StringBuilder text = new StringBuilder(table()).append('\n').append("targets:\n").append(targetLines().replace("**", ""))
                .append('\n').append(summary());
        notes.forEach(note -> text.append("  * ").append(note).append('\n'));
        problems.forEach(problem -> text.append("PROBLEM: ").append(problem).append('\n'));
        return text.toString();
    }

    String markdown() {
        StringBuilder text = new StringBuilder("# ClaimGuard throughput, " + size + " run, " + startedAt + "\n\n");
        text.append(table()).append("\n## Targets\n\n").append(targetLines()).append("\n## Run\n\n");
        summary().lines().forEach(line -> text.append("- ").append(line).append('\n'));
        text.append("\n## Notes\n\n");
        notes.forEach(note -> text.append("- ").append(note).append('\n'));
        if (!problems.isEmpty()) {
            text.append("\n## Problems\n\n");
            problems.forEach(problem -> text.append("- ").append(problem).append('\n'));
        }
        return text.toString();
    }

    /** Writes {@code throughput-<stamp>.json} and {@code .md}; returns the JSON file. */
    Path write(Path directory, String stamp) throws IOException {
        return Bench.writeResult(directory, "throughput", stamp, this, markdown());
    }

    private static String ratio(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String figure(Double value, String format) {
        return value == null || value.isNaN() ? "-" : String.format(Locale.ROOT, format, value);
    }
}
