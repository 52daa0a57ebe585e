package io.claimguard.harness.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The memory check: a large queued backlog drained by a service with a small heap, its throughput in each tenth
 * of the drain, and its peak RSS. Written as {@code bench/results/memory-<stamp>.{json,md}}.
 *
 * @param slices the drain in ten slices of equal row counts, in order
 * @param lastToFirst the last slice's rate over the first's: below {@link #KEEPS_UP} the throughput fell off
 * @param peakRssMib over the service's whole life: the queued backlog sits in its embedded broker
 * @param problems what makes the run broken (the service died or ran out of memory, rows or results missing)
 */
record MemoryReport(
        String size,
        long seed,
        String startedAt,
        double wallSeconds,
        String machine,
        String service,
        BenchEnvelopes.Summary workload,
        long inputs,
        double seconds,
        double inputsPerSecond,
        double cpuCores,
        double peakRssMib,
        List<Slice> slices,
        double lastToFirst,
        boolean keptUp,
        List<String> problems) {

    /** The last tenth must drain at least this share of the first tenth's rate. */
    static final double KEEPS_UP = 0.8;

    record Slice(int number, long fromRows, long toRows, double seconds, double inputsPerSecond) {
    }

    /**
     * Cuts a drain into ten slices of equal row counts. The moment a slice ends is interpolated between the two
     * polls around it (100 ms apart), so that short slices are not rounded to the poll interval.
     */
    static List<Slice> slices(List<ServiceUnderTest.Sample> samples, long rowsBefore, long inputs) {
        List<Slice> slices = new ArrayList<>(10);
        double previousSeconds = 0;
        long previousRows = 0;
        for (int number = 1; number <= 10; number++) {
            long boundary = (long) Math.ceil(inputs * number / 10.0);
            double at = crossing(samples, rowsBefore + boundary);
            double seconds = at - previousSeconds;
            slices.add(new Slice(number, previousRows, boundary, seconds, (boundary - previousRows) / seconds));
            previousSeconds = at;
            previousRows = boundary;
        }
        return slices;
    }

    /** Seconds into the drain at which the audit rows reached {@code rows}. */
    private static double crossing(List<ServiceUnderTest.Sample> samples, long rows) {
        ServiceUnderTest.Sample before = new ServiceUnderTest.Sample(0, samples.isEmpty() ? 0 : samples.get(0).auditRows());
        for (ServiceUnderTest.Sample sample : samples) {
            if (sample.auditRows() >= rows) {
                long gained = sample.auditRows() - before.auditRows();
                double share = gained == 0 ? 1 : (double) (rows - before.auditRows()) / gained;
                return (before.nanos() + share * (sample.nanos() - before.nanos())) / 1e9;
            }
            before = sample;
        }
        throw new IllegalStateException("the drain never reached " + rows + " rows");
    }

    boolean broken() {
        return !problems.isEmpty();
    }

    String text() {
        StringBuilder text = new StringBuilder("| slice | rows | seconds | inputs/s |\n|---:|---|---:|---:|\n");
        for (Slice slice : slices) {
            text.append(String.format(Locale.ROOT, "| %d | %,d-%,d | %.1f | %,.0f |%n", slice.number(), slice.fromRows(),
                    slice.toRows(), slice.seconds(), slice.inputsPerSecond()));
        }
        text.append('\n');
        text.append(String.format(Locale.ROOT, "drain: %,d queued messages in %.1f s, %,.0f inputs/s, %.2f CPU cores%n", inputs,
                seconds, inputsPerSecond, cpuCores));
        text.append(String.format(Locale.ROOT, "first vs last tenth: %,.0f vs %,.0f inputs/s (last/first %.2f, needs at least %.2f) %s%n",
                slices.get(0).inputsPerSecond(), slices.get(9).inputsPerSecond(), lastToFirst, KEEPS_UP, keptUp ? "PASS" : "MISS"));
        text.append(String.format(Locale.ROOT, "peak RSS of the service: %,.0f MiB%n", peakRssMib));
        text.append("size / seed: ").append(size).append(" / ").append(seed).append('\n');
        text.append("workload: ").append(workload.describe()).append('\n');
        text.append("service: ").append(service).append('\n');
        text.append("machine: ").append(machine).append('\n');
        text.append(String.format(Locale.ROOT, "wall time: %.0f s%n", wallSeconds));
        text.append("result: ").append(broken() ? "BROKEN" : "complete, no input lost").append('\n');
        problems.forEach(problem -> text.append("PROBLEM: ").append(problem).append('\n'));
        return text.toString();
    }

    /** Writes {@code memory-<stamp>.json} and {@code .md}; returns the JSON file. */
    Path write(Path directory, String stamp) throws IOException {
        return Bench.writeResult(directory, "memory", stamp, this,
                "# ClaimGuard memory check, " + size + " run, " + startedAt + "\n\n" + text());
    }
}
