package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jms.core.JmsTemplate;

/**
 * {@code bin/claimguard} as an operator runs it: a process of its own, on the jar the build packaged (failsafe runs
 * after the package phase, so {@code target/claimguard-*.jar} exists).
 */
class ClaimGuardScriptIT extends ServiceTestSupport {

    private static final Path SCRIPT = Path.of("bin/claimguard");

    @Test
    @DisplayName("Scenario: The wrapper runs the built jar, or says how to build it")
    void wrapperRunsTheJar() throws Exception {
        assertThat(builtJars()).as("run 'mvn package' (or verify) first: the wrapper runs the packaged jar").isNotEmpty();
        assertThat(Files.isExecutable(SCRIPT)).isTrue();

        Finished help = run(new ProcessBuilder(SCRIPT.toString(), "--help"));
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).startsWith("Usage: claimguard").contains("verify-chain", "status", "browse", "consume");

        ProcessBuilder missing = new ProcessBuilder(SCRIPT.toString(), "--help");
        missing.environment().put("CLAIMGUARD_JAR", "/no/such/claimguard.jar");
        Finished noJar = run(missing);
        assertThat(noJar.exitCode()).as(noJar.toString()).isEqualTo(3);
        assertThat(noJar.out()).isEmpty();
        assertThat(noJar.err()).contains("no jar found at CLAIMGUARD_JAR=/no/such/claimguard.jar", "Build it with: ",
                "./mvnw -q -DskipTests package");
    }

    @Test
    @DisplayName("Scenario: Consume --follow runs until SIGTERM and exits with 0")
    void consumeFollowsUntilSigterm() throws Exception {
        String queue = uniqueId("it.follow");
        String result = "{\"request_id\": \"follow-1\", \"verdict\": \"PASS\"}";
        // to files: destroying a process closes its pipes, and what it printed last must still be read
        // (in a folder of their own: the service's work folder holds only what the service writes, HostileValuesIT checks)
        Path folder = temporaryFolder("claimguard-follow-");
        Path out = folder.resolve("consume.out");
        Path err = folder.resolve("consume.err");
        Process consumer = new ProcessBuilder(SCRIPT.toString(), "consume", "--follow", "--queue", queue,
                "--broker", "tcp://127.0.0.1:" + BROKER_PORT).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            new JmsTemplate(connectionFactory).send(queue, session -> session.createTextMessage(result));
            await().atMost(PATIENCE).until(() -> !Files.readString(out).isEmpty());

            consumer.destroy();

            assertThat(consumer.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(consumer.exitValue()).as(Files.readString(err)).isZero();
            assertThat(Files.readAllLines(out)).containsExactly(result);
            assertThat(Files.readString(err)).contains("1 message(s) taken from " + queue);
            assertThat(CliRun.of("browse", queue, "--broker", "tcp://127.0.0.1:" + BROKER_PORT).lines()).isEmpty();
        } finally {
            consumer.destroyForcibly();
        }
    }

    private record Finished(int exitCode, String out, String err) {
    }

    private static Finished run(ProcessBuilder builder) throws Exception {
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        return new Finished(process.exitValue(), out, err);
    }

    private static List<Path> builtJars() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(file -> file.getFileName().toString().matches("claimguard-.*\\.jar")).toList();
        }
    }
}
