package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The jar started with the explorer on and operators it could never log in: it must stop before anything of it
 * starts, and say why in one line. The database it is given listens nowhere, so that a start that went on would
 * fail differently.
 */
class OperatorsAtStartIT {

    @Test
    @DisplayName("Scenario: Switched on without a usable operator, the service stops at start in one line")
    void stopsAtOnce() throws Exception {
        Run nobody = start(Map.of());
        assertThat(nobody.exitCode()).as(nobody.output()).isEqualTo(1);
        assertThat(nobody.linesNaming("claimguard.explorer.users")).as(nobody.output()).containsExactly(
                "claimguard.explorer.users names nobody, but claimguard.explorer.enabled is true: nobody could log in. "
                        + "Add an operator (a name and a {bcrypt} hash from 'claimguard hash-password')");
        nobody.assertNothingStarted();

        Run plain = start(Map.of("claimguard.explorer.users[0].name", "alice",
                "claimguard.explorer.users[0].password", "correct horse battery staple"));
        assertThat(plain.exitCode()).as(plain.output()).isEqualTo(1);
        assertThat(plain.linesNaming("claimguard.explorer.users")).as(plain.output()).hasSize(1)
                .allSatisfy(line -> assertThat(line).startsWith("claimguard.explorer.users[0] (alice): the password must "
                        + "be a hash").doesNotContain("correct horse"));
        plain.assertNothingStarted();
    }

    /** What a start printed, and how it ended. */
    private record Run(int exitCode, String output) {

        List<String> linesNaming(String text) {
            return output.lines().filter(line -> line.contains(text)).toList();
        }

        void assertNothingStarted() {
            assertThat(output.lines()).as(output).noneMatch(line -> line.startsWith("\tat ") || line.startsWith("Caused by"))
                    .noneMatch(line -> line.contains("Exception"))
                    // no broker, database pool, migration, route or web server was started
                    .noneMatch(line -> line.contains("AMQ") || line.contains("Artemis"))
                    .noneMatch(line -> line.contains("HikariPool") || line.contains("Flyway"))
                    .noneMatch(line -> line.contains("Apache Camel") || line.contains("Started route"))
                    .noneMatch(line -> line.contains("Tomcat"));
            assertThat(output).contains("APPLICATION FAILED TO START");
        }
    }

    /** Starts the jar with the explorer on and these operator settings (and none of the tests' operator), to its end. */
    private static Run start(Map<String, String> operators) throws IOException {
        Path work = Files.createTempDirectory("claimguard-operators-");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", ServiceProcess.findJar().toAbsolutePath().toString(),
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + FreePort.onLoopback() + "/nowhere",
                "--claimguard.file.inbox=" + work.resolve("inbox"), "--claimguard.file.outbox=" + work.resolve("outbox"),
                "--claimguard.broker.data-directory=" + work.resolve("artemis"),
                "--claimguard.broker.acceptor-url=tcp://127.0.0.1:" + FreePort.onLoopback(),
                "--claimguard.management.port=" + FreePort.onLoopback(),
                "--claimguard.explorer.enabled=true"));
        operators.forEach((name, value) -> command.add("--" + name + "=" + value));
        Path log = work.resolve("service.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(90)).until(() -> !process.isAlive());
        } finally {
            process.destroyForcibly();
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
