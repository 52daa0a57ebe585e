package io.claimguard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Testcontainers is asked for a Docker engine only where one may be, so that a run without Docker logs no ERROR. */
class TestDatabaseTest {

    private static final String LINUX = "Linux";

    @TempDir
    Path home;

    @Test
    void withoutAnySignOfDockerTestcontainersIsNotAsked() {
        // this machine's own sockets would count: the test only holds where there are none
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.exists(Path.of("/var/run/docker.sock")));

        assertThat(TestDatabase.dockerMayBeReachable(Map.of(), new Properties(), home, LINUX)).isFalse();
    }

    @Test
    void dockerHostOrASettingOrASocketMeansAsking() throws IOException {
        assertThat(TestDatabase.dockerMayBeReachable(Map.of("DOCKER_HOST", "tcp://docker:2375"), new Properties(), home, LINUX)).isTrue();
        Properties systemProperties = new Properties();
        systemProperties.setProperty("docker.host", "unix:///somewhere/docker.sock");
        assertThat(TestDatabase.dockerMayBeReachable(Map.of(), systemProperties, home, LINUX)).isTrue();
        assertThat(TestDatabase.dockerMayBeReachable(Map.of(), new Properties(), home, "Windows 11")).isTrue();

        Path runtime = Files.createDirectories(home.resolve("runtime"));
        Files.createFile(runtime.resolve("docker.sock"));
        assertThat(TestDatabase.dockerMayBeReachable(Map.of("XDG_RUNTIME_DIR", runtime.toString()), new Properties(), home, LINUX)).isTrue();

        Files.writeString(home.resolve(".testcontainers.properties"), "tc.host=tcp://cloud:2375\n");
        assertThat(TestDatabase.dockerMayBeReachable(Map.of(), new Properties(), home, LINUX)).isTrue();
    }
}
