package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerRole;
import io.claimguard.testkit.Envelopes;
import io.claimguard.testkit.TestBrokerUsers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        String testCase = uniqueId("it.follow");
        String mine = "testCase = '" + testCase + "'";
        String result = "{\"request_id\": \"follow-1\", \"verdict\": \"PASS\"}";
        // to files: destroying a process closes its pipes, and what it printed last must still be read
        // (in a folder of their own: the service's work folder holds only what the service writes, HostileValuesIT checks)
        Path folder = temporaryFolder("claimguard-follow-");
        Path out = folder.resolve("consume.out");
        Path err = folder.resolve("consume.err");
        Process consumer = new ProcessBuilder(SCRIPT.toString(), "consume", "--follow", "--queue", OUTPUT_QUEUE,
                "--selector", mine, "--broker", "tcp://127.0.0.1:" + BROKER_PORT,
                "--broker-credentials", BROKER_CREDENTIALS.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            // a result as ClaimGuard sends it (its own login, the one that may send to the output queue)
            new JmsTemplate(connectionFactory).send(OUTPUT_QUEUE, session -> {
                jakarta.jms.TextMessage message = session.createTextMessage(result);
                message.setStringProperty("testCase", testCase);
                return message;
            });
            await().atMost(PATIENCE).until(() -> !Files.readString(out).isEmpty());

            consumer.destroy();

            assertThat(consumer.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(consumer.exitValue()).as(Files.readString(err)).isZero();
            assertThat(Files.readAllLines(out)).containsExactly(result);
            assertThat(Files.readString(err)).contains("1 message(s) taken from " + OUTPUT_QUEUE);
            assertThat(CliRun.of("browse", OUTPUT_QUEUE, "--output-queue", OUTPUT_QUEUE, "--selector", mine,
                    "--broker", "tcp://127.0.0.1:" + BROKER_PORT, "--broker-credentials", BROKER_CREDENTIALS.toString())
                    .lines()).isEmpty();
        } finally {
            consumer.destroyForcibly();
        }
    }

    /**
     * The tools as an operator runs them beside the service, with nothing but the service's own environment: the
     * embedded broker's acceptor, the credentials file and the queue names. {@code send} logs in as the producer,
     * {@code browse} of the dead-letter queue as the operator, {@code consume} as the consumer.
     */
    @Test
    @DisplayName("Scenario: The tools take the broker settings and logins from the service's environment")
    void toolsTakeTheServicesEnvironment() throws Exception {
        String requestId = uniqueId("script-env");
        String rejected = uniqueId("script-env-rejected");
        Path folder = temporaryFolder("claimguard-env-");
        Path envelope = Files.writeString(folder.resolve("envelope.json"), Envelopes.passingV1(requestId));
        Path notJson = Files.writeString(folder.resolve("not-json.json"), "{not json " + rejected);

        Finished sent = run(withServiceEnvironment(new ProcessBuilder(SCRIPT.toString(), "send", "--no-wait",
                envelope.toString(), notJson.toString())));
        assertThat(sent.exitCode()).as(sent.toString()).isZero();
        assertThat(awaitAuditRow(requestId)).containsEntry("source", "jms");

        await().atMost(PATIENCE).until(() -> run(withServiceEnvironment(new ProcessBuilder(SCRIPT.toString(), "browse",
                DEAD_LETTER_QUEUE, "--max", "100000", "--selector", "ClaimGuardDeadLetterReason LIKE 'not_json:%'")))
                .out().contains(rejected));
        Finished taken = run(withServiceEnvironment(new ProcessBuilder(SCRIPT.toString(), "consume", "--wait", "10s",
                "--max", "1", "--selector", "ClaimGuardRequestId = '" + requestId + "'")));
        assertThat(taken.exitCode()).as(taken.toString()).isZero();
        assertThat(taken.out()).contains("\"request_id\":\"" + requestId + "\"");
        assertThat(taken.err()).contains("1 message(s) taken from " + OUTPUT_QUEUE + " at tcp://127.0.0.1:" + BROKER_PORT);
    }

    /**
     * A tool whose login may not do what it is asked: the producer's login sending to the output queue. One line on
     * standard error names the broker, the login and where it came from, and what was refused; exit code 3.
     */
    @Test
    @DisplayName("Scenario: A tool the broker refuses says so in one line with exit code 3")
    void refusedToolSaysSo() throws Exception {
        Path envelope = Files.writeString(temporaryFolder("claimguard-refused-").resolve("envelope.json"),
                Envelopes.passingV1(uniqueId("script-refused")));

        Finished refused = run(withServiceEnvironment(new ProcessBuilder(SCRIPT.toString(), "send", "--no-wait",
                "--queue", OUTPUT_QUEUE, envelope.toString())));

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(3);
        assertThat(refused.out()).isEmpty();
        assertThat(refused.err().strip()).doesNotContain("\n").doesNotContain("\tat ")
                .startsWith("claimguard send: the broker at tcp://127.0.0.1:" + BROKER_PORT + " refused user "
                        + TestBrokerUsers.login(BrokerRole.PRODUCER).user() + " (the producer login of " + BROKER_CREDENTIALS
                        + ") sending to " + OUTPUT_QUEUE + ": ")
                .contains("permission='SEND'");

        Finished wrongPassword = run(withServiceEnvironment(new ProcessBuilder(SCRIPT.toString(), "browse",
                "--broker-user", TestBrokerUsers.login(BrokerRole.CONSUMER).user(), "--broker-password", "not-the-password")));
        assertThat(wrongPassword.exitCode()).as(wrongPassword.toString()).isEqualTo(3);
        assertThat(wrongPassword.err().strip()).doesNotContain("\n").startsWith("claimguard browse: the broker at "
                + "tcp://127.0.0.1:" + BROKER_PORT + " refused user " + TestBrokerUsers.login(BrokerRole.CONSUMER).user()
                + " (--broker-user) logging in: ");
    }

    /** The service's settings as its environment variables: the acceptor (with its options), credentials file, queues. */
    private static ProcessBuilder withServiceEnvironment(ProcessBuilder builder) {
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("SPRING_ARTEMIS_") || name.startsWith("CLAIMGUARD_"));
        environment.put("CLAIMGUARD_BROKER_ACCEPTOR_URL", "tcp://127.0.0.1:" + BROKER_PORT + "?protocols=CORE,AMQP");
        environment.put("CLAIMGUARD_BROKER_CREDENTIALS_FILE", BROKER_CREDENTIALS.toString());
        environment.put("CLAIMGUARD_JMS_INPUT_QUEUE", INPUT_QUEUE);
        environment.put("CLAIMGUARD_JMS_OUTPUT_QUEUE", OUTPUT_QUEUE);
        environment.put("CLAIMGUARD_JMS_DEAD_LETTER_QUEUE", DEAD_LETTER_QUEUE);
        return builder;
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
