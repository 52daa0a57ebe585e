package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jms.core.JmsTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code claimguard browse} and {@code consume} against the service's embedded broker, logged in from the credentials
 * file as the consumer. Each test works on the output queue with a selector on its own messages only: other tests wait
 * for their results there. The messages a test puts there itself it sends as ClaimGuard, the one login that may.
 */
class QueueToolsIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String BROKER = "tcp://127.0.0.1:" + BROKER_PORT;

    @Test
    @DisplayName("Scenario: Browse shows the waiting messages as JSON lines and leaves them")
    void browseShowsAndLeaves() {
        String testCase = uniqueId("it.browse");
        String mine = "testCase = '" + testCase + "'";
        byte[] bytes = {0, 1, 2, (byte) 0xff};
        JmsTemplate jms = new JmsTemplate(connectionFactory);
        jms.send(OUTPUT_QUEUE, session -> {
            TextMessage message = session.createTextMessage("{\"request_id\": \"r-1\", \"verdict\": \"REJECT\"}");
            message.setStringProperty("ClaimGuardRequestId", "r-1");
            message.setLongProperty("ClaimGuardAuditId", 42);
            message.setStringProperty("testCase", testCase);
            return message;
        });
        jms.send(OUTPUT_QUEUE, session -> tagged(session.createTextMessage("not JSON"), testCase));
        jms.send(OUTPUT_QUEUE, session -> {
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(bytes);
            return tagged(message, testCase);
        });

        CliRun run = tool("browse", OUTPUT_QUEUE, "--selector", mine);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        List<JsonNode> lines = run.lines().stream().map(JSON::readTree).toList();
        assertThat(lines).hasSize(3);
        JsonNode result = lines.get(0);
        assertThat(result.path("message_id").asString()).startsWith("ID:");
        assertThat(result.path("properties").path("ClaimGuardRequestId").asString()).isEqualTo("r-1");
        assertThat(result.path("properties").path("ClaimGuardAuditId").asLong()).isEqualTo(42);
        assertThat(result.path("properties").propertyNames()).allSatisfy(name -> assertThat(name).doesNotStartWith("_").doesNotStartWith("JMS"));
        assertThat(result.path("body_encoding").asString()).isEqualTo("json");
        assertThat(result.path("body").path("verdict").asString()).isEqualTo("REJECT");
        assertThat(lines.get(1).path("body_encoding").asString()).isEqualTo("text");
        assertThat(lines.get(1).path("body").asString()).isEqualTo("not JSON");
        assertThat(lines.get(2).path("body_encoding").asString()).isEqualTo("base64");
        assertThat(Base64.getDecoder().decode(lines.get(2).path("body").asString())).isEqualTo(bytes);
        assertThat(run.err()).isEqualTo("3 message(s) shown of " + OUTPUT_QUEUE + " at " + BROKER + "\n");

        // nothing was taken: they are all shown again, and the selector picks one of them
        CliRun again = tool("browse", OUTPUT_QUEUE, "--selector", mine, "--max", "2");
        assertThat(again.lines()).hasSize(2);
        assertThat(again.err()).contains("2 message(s) shown", "more are waiting");
        CliRun selected = tool("browse", OUTPUT_QUEUE, "--selector", mine + " AND ClaimGuardRequestId = 'r-1'");
        assertThat(selected.lines()).singleElement().asString().contains("\"r-1\"");

        CliRun badSelector = tool("browse", OUTPUT_QUEUE, "--selector", "ClaimGuardRequestId = ");
        assertThat(badSelector.exitCode()).as(badSelector.toString()).isEqualTo(2);
        assertThat(badSelector.err()).startsWith("claimguard browse: invalid --selector \"ClaimGuardRequestId = \"");
    }

    @Test
    @DisplayName("Scenario: Consume takes exactly --max results and leaves the rest")
    void consumeTakesMax() {
        String prefix = uniqueId("consume");
        List<String> requestIds = IntStream.range(0, 3).mapToObj(i -> prefix + "-" + i).toList();
        requestIds.forEach(id -> sendText(gatekeeperFailedV2(id), id));

        CliRun run = tool("consume", "--queue", OUTPUT_QUEUE, "--max", "2", "--wait", "30s",
                "--selector", "ClaimGuardRequestId LIKE '" + prefix + "-%'");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).hasSize(2);
        List<String> taken = new ArrayList<>();
        for (String line : run.lines()) {
            JsonNode result = JSON.readTree(line);
            assertThat(result.path("verdict").asString()).isEqualTo("REJECT");
            assertThat(result.path("audit_id").asLong()).isPositive();
            taken.add(result.path("request_id").asString());
        }
        assertThat(run.err()).isEqualTo("2 message(s) taken from " + OUTPUT_QUEUE + " at " + BROKER + "\n");
        String left = requestIds.stream().filter(id -> !taken.contains(id)).findFirst().orElseThrow();
        assertThat(taken).hasSize(2).isSubsetOf(requestIds);
        Message rest = receiveResult(left);
        assertThat(rest).as("the third result, left on the queue").isNotNull();
        assertThat(taken.stream().map(this::resultStillThere)).containsOnly(false);
    }

    @Test
    @DisplayName("Scenario: Consume ends when no message came for --wait")
    void consumeEndsAfterWait() {
        String testCase = uniqueId("it.consume");
        String mine = "testCase = '" + testCase + "'";
        String oneLine = "{\"b\": 1,  \"a\": [1.50, \"x\"]}";
        JmsTemplate jms = new JmsTemplate(connectionFactory);
        jms.send(OUTPUT_QUEUE, session -> tagged(session.createTextMessage(oneLine), testCase));
        jms.send(OUTPUT_QUEUE, session -> tagged(session.createTextMessage(
                "{\n  \"request_id\": \"r-2\",\n  \"score\": 0.620\n}\n"), testCase));

        long started = System.nanoTime();
        CliRun run = tool("consume", "--queue", OUTPUT_QUEUE, "--selector", mine, "--wait", "500ms");
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).containsExactly(oneLine, "{\"request_id\":\"r-2\",\"score\":0.620}");
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        assertThat(tool("browse", OUTPUT_QUEUE, "--selector", mine).lines()).isEmpty();
    }

    private boolean resultStillThere(String requestId) {
        return !tool("browse", OUTPUT_QUEUE, "--selector", "ClaimGuardRequestId = '" + requestId + "'").lines().isEmpty();
    }

    /** The tool on the test service's broker, logged in from the credentials file with the role the tool takes. */
    private static CliRun tool(String... arguments) {
        Stream<String> broker = Stream.of("--broker", BROKER, "--broker-credentials", BROKER_CREDENTIALS.toString());
        if (arguments[0].equals("browse")) {
            // the test's output queue, not the default name: browse takes the consumer's login for it
            broker = Stream.concat(broker, Stream.of("--output-queue", OUTPUT_QUEUE));
        }
        return CliRun.of(Stream.concat(Stream.of(arguments), broker).toArray(String[]::new));
    }

    private static Message tagged(Message message, String testCase) throws JMSException {
        message.setStringProperty("testCase", testCase);
        return message;
    }
}
