package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jms.core.JmsTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code claimguard browse} and {@code consume} against the service's embedded broker. Each test works on a queue of
 * its own, or on the output queue with a selector on its own request ids only: other tests wait for their results there.
 */
class QueueToolsIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String BROKER = "tcp://127.0.0.1:" + BROKER_PORT;

    @Test
    @DisplayName("Scenario: Browse shows the waiting messages as JSON lines and leaves them")
    void browseShowsAndLeaves() {
        String queue = uniqueId("it.browse");
        byte[] bytes = {0, 1, 2, (byte) 0xff};
        JmsTemplate jms = new JmsTemplate(connectionFactory);
        jms.send(queue, session -> {
            TextMessage message = session.createTextMessage("{\"request_id\": \"r-1\", \"verdict\": \"REJECT\"}");
            message.setStringProperty("ClaimGuardRequestId", "r-1");
            message.setLongProperty("ClaimGuardAuditId", 42);
            return message;
        });
        jms.send(queue, session -> session.createTextMessage("not JSON"));
        jms.send(queue, session -> {
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(bytes);
            return message;
        });

        CliRun run = CliRun.of("browse", queue, "--broker", BROKER);

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
        assertThat(run.err()).isEqualTo("3 message(s) shown of " + queue + " at " + BROKER + "\n");

        // nothing was taken: they are all shown again, and the selector picks one of them
        CliRun again = CliRun.of("browse", queue, "--broker", BROKER, "--max", "2");
        assertThat(again.lines()).hasSize(2);
        assertThat(again.err()).contains("2 message(s) shown", "more are waiting");
        CliRun selected = CliRun.of("browse", queue, "--broker", BROKER, "--selector", "ClaimGuardRequestId = 'r-1'");
        assertThat(selected.lines()).singleElement().asString().contains("\"r-1\"");

        CliRun badSelector = CliRun.of("browse", queue, "--broker", BROKER, "--selector", "ClaimGuardRequestId = ");
        assertThat(badSelector.exitCode()).as(badSelector.toString()).isEqualTo(2);
        assertThat(badSelector.err()).startsWith("claimguard browse: invalid --selector \"ClaimGuardRequestId = \"");
    }

    @Test
    @DisplayName("Scenario: Consume takes exactly --max results and leaves the rest")
    void consumeTakesMax() {
        String prefix = uniqueId("consume");
        List<String> requestIds = IntStream.range(0, 3).mapToObj(i -> prefix + "-" + i).toList();
        requestIds.forEach(id -> sendText(gatekeeperFailedV2(id), id));

        CliRun run = CliRun.of("consume", "--broker", BROKER, "--queue", OUTPUT_QUEUE, "--max", "2", "--wait", "30s",
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
        String queue = uniqueId("it.consume");
        String oneLine = "{\"b\": 1,  \"a\": [1.50, \"x\"]}";
        JmsTemplate jms = new JmsTemplate(connectionFactory);
        jms.send(queue, session -> session.createTextMessage(oneLine));
        jms.send(queue, session -> session.createTextMessage("{\n  \"request_id\": \"r-2\",\n  \"score\": 0.620\n}\n"));

        long started = System.nanoTime();
        CliRun run = CliRun.of("consume", "--broker", BROKER, "--queue", queue, "--wait", "500ms");
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.lines()).containsExactly(oneLine, "{\"request_id\":\"r-2\",\"score\":0.620}");
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        assertThat(CliRun.of("browse", queue, "--broker", BROKER).lines()).isEmpty();
    }

    private boolean resultStillThere(String requestId) {
        return !CliRun.of("browse", OUTPUT_QUEUE, "--broker", BROKER, "--selector", "ClaimGuardRequestId = '" + requestId + "'")
                .lines().isEmpty();
    }
}
