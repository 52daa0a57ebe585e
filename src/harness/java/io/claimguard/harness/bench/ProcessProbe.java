package io.claimguard.harness.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * CPU time and peak resident memory of a process, from Linux's {@code /proc}. The benchmark measures the service
 * from outside, as an operator would, rather than trusting figures the service reports about itself.
 */
final class ProcessProbe {

    private ProcessProbe() {
    }

    /**
     * User plus system CPU time so far: {@code utime + stime} of {@code /proc/<pid>/stat}, which is what the JDK
     * reads for {@link ProcessHandle.Info#totalCpuDuration()} on Linux (converted with the system's clock tick).
     */
    static Duration cpuTime(long pid) {
        return ProcessHandle.of(pid).flatMap(process -> process.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("no CPU time for pid " + pid + " (process gone?)"));
    }

    /** CPU used over a window, as cores: {@code started} is {@link #cpuTime} at the window's start. */
    static double cores(long pid, Duration started, Duration window) {
        return (double) cpuTime(pid).minus(started).toNanos() / window.toNanos();
    }

    /** The peak resident set size in MiB: {@code VmHWM} of {@code /proc/<pid>/status}. */
    static double peakRssMib(long pid) {
        List<String> status;
        try {
            status = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the status of pid " + pid, e);
        }
        for (String line : status) {
            if (line.startsWith("VmHWM:")) {
                // "VmHWM:    123456 kB"
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        throw new IllegalStateException("no VmHWM in /proc/" + pid + "/status");
    }

    /**
     * Resets the peak RSS to the current RSS (writing 5 to {@code /proc/<pid>/clear_refs}, Linux 4.0+), so that a
     * phase's peak is its own and not that of an earlier phase of the same process.
     *
     * @return false when the kernel does not allow it; the peak then covers the process's whole life so far
     */
    static boolean resetPeakRss(long pid) {
        try {
            Files.writeString(Path.of("/proc", Long.toString(pid), "clear_refs"), "5", StandardCharsets.US_ASCII);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
