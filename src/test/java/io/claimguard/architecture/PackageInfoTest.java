package io.claimguard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every package says in its {@code package-info.java} what it holds and what it may use. */
class PackageInfoTest {

    /** The source roots of the service, the test kit and the harnesses. */
    private static final List<Path> SOURCE_ROOTS = List.of(
            Path.of("src/main/java"), Path.of("src/testkit/java"), Path.of("src/harness/java"));

    @Test
    @DisplayName("Every package under io.claimguard has a package-info.java")
    void everyPackageSaysWhatItHolds() {
        for (Path root : SOURCE_ROOTS) {
            assertThat(root.resolve("io/claimguard")).isDirectory();
            assertThat(packagesWithoutInfo(root)).as("packages under %s without a package-info.java", root).isEmpty();
        }
    }

    @Test
    @DisplayName("The check finds a package without a package-info.java")
    void checkFindsAMissingPackageInfo(@TempDir Path root) throws IOException {
        Path described = Files.createDirectories(root.resolve("io/claimguard/described"));
        Files.writeString(described.resolve("Thing.java"), "package io.claimguard.described; class Thing {}");
        Files.writeString(described.resolve("package-info.java"), "package io.claimguard.described;");
        Path silent = Files.createDirectories(root.resolve("io/claimguard/silent"));
        Files.writeString(silent.resolve("Other.java"), "package io.claimguard.silent; class Other {}");

        assertThat(packagesWithoutInfo(root)).containsExactly(silent);
    }

    /** The directories under the root's io/claimguard that hold Java sources but no package-info.java. */
    static List<Path> packagesWithoutInfo(Path root) {
        try (Stream<Path> directories = Files.walk(root.resolve("io/claimguard"))) {
            return directories.filter(Files::isDirectory)
                    .filter(directory -> holdsJavaSources(directory) && !Files.exists(directory.resolve("package-info.java")))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean holdsJavaSources(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
