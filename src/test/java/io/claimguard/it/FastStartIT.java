package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/claimguard}'s fast start: the extracted layout and class-data-sharing archive that
 * {@code bin/claimguard-extract} lays beside a jar, used only while it was made from that jar as it is. Which one ran
 * is read from the class path the JVM reports ({@code -XshowSettings:properties} on standard error).
 */
class FastStartIT {

    private static final Path SCRIPT = Path.of("bin/claimguard").toAbsolutePath();
    private static final Path EXTRACT = Path.of("bin/claimguard-extract").toAbsolutePath();

    private static Path folder;
    private static Path jar;

    /** A jar of its own, so that touching it or removing its layout leaves the build's own alone. */
    @BeforeAll
    static void copyTheBuiltJar() throws IOException {
        Path built;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            built = files.filter(file -> file.getFileName().toString().matches("claimguard-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("run 'mvn package' (or verify) first"));
        }
        folder = Files.createTempDirectory("claimguard-fast-start-");
        jar = Files.copy(built, folder.resolve("claimguard.jar"), StandardCopyOption.COPY_ATTRIBUTES);
    }

    @AfterAll
    static void removeTheCopy() throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
    }

    @Test
    @DisplayName("Scenario: The build lays the jar out for a fast start")
    void theBuildLaysTheJarOut() throws Exception {
        Finished help = run(null, SCRIPT.toString(), "--help");

        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).startsWith("Usage: claimguard");
        assertThat(classPath(help)).as("the build's layout, made by the package phase")
                .endsWith("/target/claimguard-fast/claimguard.jar");
    }

    @Test
    @DisplayName("Scenario: The wrapper runs the layout only while it was made from the jar as it is")
    void staleOrMissingLayoutFallsBackToTheJar() throws Exception {
        Finished extracted = run(jar, EXTRACT.toString(), jar.toString());
        assertThat(extracted.exitCode()).as(extracted.toString()).isZero();
        Path layout = folder.resolve("claimguard-fast");
        assertThat(layout.resolve("claimguard.jsa")).isNotEmptyFile();

        Finished fast = runOnTheCopy("status", "--help");
        assertThat(fast.exitCode()).as(fast.toString()).isZero();
        assertThat(fast.out()).startsWith("Usage: claimguard status");
        assertThat(classPath(fast)).isEqualTo(layout.resolve("claimguard.jar").toString());
        assertThat(fast.err()).as("no JVM warning: the archive fits the layout").doesNotContain("[warning]");

        // a jar rebuilt (or copied over) after the layout was made: its classes may differ from the layout's
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
        Finished stale = runOnTheCopy("status", "--help");
        assertThat(stale.exitCode()).as(stale.toString()).isZero();
        assertThat(stale.out()).isEqualTo(fast.out());
        assertThat(classPath(stale)).isEqualTo(jar.toString());

        Finished again = run(jar, EXTRACT.toString(), jar.toString());
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(classPath(runOnTheCopy("--version"))).isEqualTo(layout.resolve("claimguard.jar").toString());

        Files.delete(layout.resolve("layout.stamp"));
        Finished missing = runOnTheCopy("--version");
        assertThat(missing.exitCode()).as(missing.toString()).isZero();
        assertThat(missing.out()).startsWith("ClaimGuard ");
        assertThat(classPath(missing)).isEqualTo(jar.toString());
    }

    private record Finished(int exitCode, String out, String err) {
    }

    private static Finished runOnTheCopy(String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = SCRIPT.toString();
        System.arraycopy(args, 0, command, 1, args.length);
        return run(jar, command);
    }

    /** Runs {@code command} with {@code CLAIMGUARD_JAR} naming {@code theJar}; null: the build's newest jar. */
    private static Finished run(Path theJar, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("CLAIMGUARD_JAR");
        if (theJar != null) {
            builder.environment().put("CLAIMGUARD_JAR", theJar.toString());
        }
        builder.environment().put("JAVA_OPTS", "-XshowSettings:properties");
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Finished(process.exitValue(), out, err);
    }

    /** The class path the JVM ran with: the jar {@code -jar} named, as {@code -XshowSettings:properties} prints it. */
    private static String classPath(Finished finished) {
        return finished.err().lines().map(String::strip).filter(line -> line.startsWith("java.class.path = "))
                .findFirst().orElseThrow(() -> new AssertionError("no class path in: " + finished.err()))
                .substring("java.class.path = ".length());
    }
}
