package io.claimguard.harness.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * CPU time and peak resident memory of a process, from Linux's {@code /proc}. The benchmark measures the service
 * from outside, as an operator would, rather than trusting figures the service reports about itself.
 */
final class ProcessProbe {

    /** USER_HZ, 100 on every Linux architecture the JDK runs on (sysconf(_SC_CLK_TCK)). */
    private static final double TICKS_PER_SECOND = 100;

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

    /**
     * What a process, its JIT compiler threads and every PostgreSQL process of the machine used over one timed window.
     *
     * @param cores the process's CPU, as cores
     * @param compilerShare the JIT compiler threads' share of it; NaN when the process used none
     * @param postgresCores PostgreSQL's CPU, as cores
     */
    record CpuUse(double cores, double compilerShare, double postgresCores) {
    }

    /** The readings at a window's start; {@link #end} reads again and makes the {@link CpuUse} of the window. */
    record CpuWindow(long pid, CpuTicks processBefore, long postgresBefore) {

        static CpuWindow start(long pid) {
            return new CpuWindow(pid, cpuTicks(pid), postgresTicks());
        }

        CpuUse end(Duration elapsed) {
            CpuTicks process = cpuTicks(pid);
            double tickSeconds = TICKS_PER_SECOND * (elapsed.toNanos() / 1e9);
            return new CpuUse((process.process() - processBefore.process()) / tickSeconds,
                    process.compilerShareSince(processBefore), (postgresTicks() - postgresBefore) / tickSeconds);
        }
    }

    /**
     * CPU clock ticks ({@code utime + stime}) of a whole process and of its JIT compiler threads (the HotSpot
     * threads named {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>}), from {@code /proc/<pid>/stat}
     * and {@code /proc/<pid>/task/<tid>/stat}. A compiler thread that ends inside a window takes its ticks with it,
     * so the share is a lower bound.
     */
    record CpuTicks(long process, long compiler) {

        /** The compiler threads' share of the process's CPU since {@code start}; NaN when no CPU was used. */
        double compilerShareSince(CpuTicks start) {
            long used = process - start.process;
            return used <= 0 ? Double.NaN : (double) Math.max(0, compiler - start.compiler) / used;
        }
    }

    private static CpuTicks cpuTicks(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        long compiler = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path task : tasks) {
                String stat = readStat(task.resolve("stat"));
                if (stat != null && isCompilerThread(stat)) {
                    compiler += ticks(stat);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the threads of pid " + pid, e);
        }
        String stat = readStat(proc.resolve("stat"));
        if (stat == null) {
            throw new IllegalStateException("no /proc/" + pid + "/stat (process gone?)");
        }
        return new CpuTicks(ticks(stat), compiler);
    }

    /**
     * CPU clock ticks of every PostgreSQL server process of the machine ({@code utime + stime + cutime + cstime}): the
     * children's fields of the postmaster keep the CPU of backends that ended inside a window, such as the
     * ceiling's connection, closed before the window's end is read.
     */
    private static long postgresTicks() {
        long ticks = 0;
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                String stat = readStat(process.resolve("stat"));
                if (stat != null && isPostgres(process)) {
                    String[] fields = fieldsAfterName(stat);
                    // utime, stime, cutime, cstime
                    for (int field = 11; field <= 14; field++) {
                        ticks += Long.parseLong(fields[field]);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list /proc", e);
        }
        return ticks;
    }

    private static boolean isPostgres(Path process) {
        try {
            String command = Files.readString(process.resolve("comm"), StandardCharsets.US_ASCII).strip();
            return command.equals("postgres") || command.startsWith("postgres:");
        } catch (IOException e) {
            return false;
        }
    }

    /** The thread name is in parentheses and may hold spaces: it ends at the last ')'. */
    private static boolean isCompilerThread(String stat) {
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /** utime + stime: fields 14 and 15 of stat, that is the 12th and 13th after the state. */
    private static long ticks(String stat) {
        String[] fields = fieldsAfterName(stat);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** The fields of a stat line after the name, from the state (field 3) on. */
    private static String[] fieldsAfterName(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    /** null when the thread or process ended meanwhile. */
    private static String readStat(Path stat) {
        try {
            return Files.readString(stat, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stat, e);
        }
    }

    /** The peak resident set size in MiB: {@code VmHWM} of {@code /proc/<pid>/status}. */
    static double peakRssMib(long pid) {
        return statusMib(pid, "VmHWM:");
    }

    /** The resident set size now, in MiB: {@code VmRSS} of {@code /proc/<pid>/status}. */
    static double rssMib(long pid) {
        return statusMib(pid, "VmRSS:");
    }

    private static double statusMib(long pid, String field) {
        List<String> status;
        try {
            status = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the status of pid " + pid, e);
        }
        for (String line : status) {
            if (line.startsWith(field)) {
                // "VmHWM:    123456 kB"
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        throw new IllegalStateException("no " + field + " in /proc/" + pid + "/status");
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
