package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.FreePort;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code claimguard status} and {@code /actuator/claimguard} against the service's database and broker. The database
 * is shared with every service test, so counts are compared before and after this test's own inputs.
 */
class StatusIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String BROKER = "tcp://127.0.0.1:" + BROKER_PORT;

    @Test
    @DisplayName("Scenario: Status counts the inputs of the last hour and day by verdict")
    void statusCountsInputs() {
        JsonNode before = statusJson(BROKER);
        String passing = uniqueId("status-pass");
        List<String> rejected = List.of(uniqueId("status-reject"), uniqueId("status-reject"));
        sendText(passingV1(passing), passing);
        rejected.forEach(id -> sendText(gatekeeperFailedV2(id), id));
        for (String id : List.of(passing, rejected.get(0), rejected.get(1))) {
            awaitAuditRow(id);
            await().atMost(PATIENCE).until(() -> sealed(id));
        }

        CliRun json = status("--json", "--broker", BROKER);
        CliRun text = status("--broker", BROKER);

        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode after = JSON.readTree(json.out());
        for (String window : List.of("last_hour", "last_day")) {
            JsonNode was = before.path("audit").path(window);
            JsonNode is = after.path("audit").path(window);
            assertThat(is.path("inputs").asLong()).as(window).isGreaterThanOrEqualTo(was.path("inputs").asLong() + 3);
            assertThat(is.path("by_verdict").path("PASS").asLong()).isGreaterThanOrEqualTo(was.path("by_verdict").path("PASS").asLong() + 1);
            assertThat(is.path("by_verdict").path("REJECT").asLong()).isGreaterThanOrEqualTo(was.path("by_verdict").path("REJECT").asLong() + 2);
            assertThat(is.path("downgraded").asLong()).isGreaterThanOrEqualTo(was.path("downgraded").asLong() + 2);
            assertThat(is.path("inputs").asLong()).isEqualTo(sum(is.path("by_verdict")));
        }
        JsonNode chain = after.path("audit").path("chain");
        assertThat(chain.path("check").asString()).isEqualTo("head_link");
        assertThat(chain.path("verified").asBoolean()).as(chain.toString()).isTrue();
        assertThat(chain.path("head_seq").asLong()).isGreaterThanOrEqualTo(sealSeqOf(rejected.get(1)));
        assertThat(chain.path("sealed_rows").asLong()).isPositive();
        assertThat(after.path("audit").path("last_audit_at").asString()).isNotBlank();
        assertThat(after.path("inbox").path("path").asString()).isEqualTo(INBOX.toString());
        assertThat(after.path("queues").path("broker").asString()).isEqualTo(BROKER);
        assertThat(after.path("queues").path("input").path("name").asString()).isEqualTo(INPUT_QUEUE);
        assertThat(after.path("queues").path("dead_letter").path("name").asString()).isEqualTo(DEAD_LETTER_QUEUE);

        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).containsPattern("(?m)^audited +[0-9,]+ +[0-9,]+$")
                .containsPattern("(?m)^  REJECT +[0-9,]+ +[0-9,]+$")
                .containsPattern("(?m)^last audit: \\S+ \\(\\d+ s ago\\)$")
                .containsPattern("(?m)^chain: [0-9,]+ rows sealed, [0-9,]+ not yet sealed, head seq \\d+ hash [0-9a-f]{12}\\.\\., head link verified, .+$")
                .contains("inbox: ", " waiting in " + INBOX)
                .contains("queues: at " + BROKER + ": " + INPUT_QUEUE + " ");
    }

    @Test
    @DisplayName("Scenario: An unreachable broker is shown as unavailable and the rest still shown")
    void unreachableBroker() {
        String nobody = "tcp://127.0.0.1:" + FreePort.onLoopback();

        CliRun text = status("--broker", nobody);
        CliRun json = status("--broker", nobody, "--json");

        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains("queues: unavailable: cannot reach the broker at " + nobody + ": ")
                .containsPattern("(?m)^audited ").contains("chain: ", "inbox: ");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode status = JSON.readTree(json.out());
        assertThat(status.path("queues").path("available").asBoolean()).isFalse();
        assertThat(status.path("queues").path("reason").asString()).startsWith("cannot reach the broker at " + nobody);
        assertThat(status.path("audit").path("available").asBoolean()).isTrue();
        assertThat(status.path("inbox").path("available").asBoolean()).isTrue();
    }

    @Test
    @DisplayName("Scenario: A chain that does not verify makes status exit with 1")
    void brokenChain() {
        String requestId = uniqueId("status-altered");
        sendText(gatekeeperFailedV2(requestId), requestId);
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
        await().atMost(PATIENCE).until(() -> sealed(requestId));

        CliRun text;
        CliRun json;
        CliRun verified;
        // as the owner, behind the service's back; put back at once, for the other tests share the chain
        SQL.update("UPDATE claimguard.verification_audit SET effective_verdict = 'PASS' WHERE id = ?", auditId);
        try {
            verified = verifyChain();
            text = status("--broker", BROKER);
            json = status("--broker", BROKER, "--json");
        } finally {
            SQL.update("UPDATE claimguard.verification_audit SET effective_verdict = 'REJECT' WHERE id = ?", auditId);
        }

        String altered = "audit_id=" + auditId + ": content altered";
        assertThat(verified.exitCode()).as(verified.toString()).isEqualTo(1);
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(1);
        assertThat(text.out()).containsPattern("(?m)^chain: .*, DOES NOT VERIFY \\((head link|verify-chain full at \\S+)\\): " + altered);
        assertThat(json.exitCode()).isEqualTo(1);
        JsonNode chain = JSON.readTree(json.out()).path("audit").path("chain");
        assertThat(chain.path("verified").asBoolean()).isFalse();
        assertThat(chain.path("first_break").asString()).startsWith(altered);
        assertThat(chain.path("last_verification").path("intact").asBoolean()).isFalse();
        try {
            assertThat(status("--broker", BROKER).exitCode()).as("until verify-chain runs again").isEqualTo(1);
        } finally {
            assertThat(verifyChain().exitCode()).as("restored").isZero();
        }
        assertThat(status("--broker", BROKER).exitCode()).as("restored and verified again").isZero();
    }

    @Test
    @DisplayName("Scenario: Status reports how far, when and how the chain was last verified, without recomputing it")
    void statusReportsTheLastVerification() {
        String requestId = uniqueId("status-verified");
        sendText(passingV1(requestId), requestId);
        awaitAuditRow(requestId);
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        long headBefore = sealSeqOf(requestId);

        CliRun verified = verifyChain();
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
        String later = uniqueId("status-after-verification");
        sendText(passingV1(later), later);
        awaitAuditRow(later);
        await().atMost(PATIENCE).until(() -> sealed(later));
        JsonNode chain = statusJson(BROKER).path("audit").path("chain");

        assertThat(chain.path("verified").asBoolean()).as(chain.toString()).isTrue();
        JsonNode last = chain.path("last_verification");
        assertThat(last.path("mode").asString()).isEqualTo("full");
        assertThat(last.path("intact").asBoolean()).isTrue();
        assertThat(last.path("from_seq").isNull()).as("from the chain's start").isTrue();
        assertThat(last.path("through_seq").asLong()).isGreaterThanOrEqualTo(headBefore).isLessThan(sealSeqOf(later));
        assertThat(last.path("verified_at").asString()).isNotBlank();
        assertThat(last.path("seals_since").asLong()).as("the later row's seal at least").isPositive();
    }

    @Test
    @DisplayName("Scenario: The actuator endpoint answers the status JSON")
    void actuatorEndpoint() {
        String requestId = uniqueId("status-endpoint");
        sendText(passingV1(requestId), requestId);
        awaitAuditRow(requestId);

        HttpResponse<String> response = management("/actuator/claimguard");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode endpoint = JSON.readTree(response.body());
        JsonNode command = statusJson(BROKER);
        assertThat(fieldNames(endpoint, "")).isEqualTo(fieldNames(command, ""));
        assertThat(endpoint.path("audit").path("last_hour").path("inputs").asLong()).isPositive();
        assertThat(endpoint.path("audit").path("last_hour").path("by_verdict").path("PASS").asLong()).isPositive();
        JsonNode chain = endpoint.path("audit").path("chain");
        assertThat(chain.path("check").asString()).isEqualTo("head_link");
        assertThat(chain.path("verified").asBoolean()).as(chain.toString()).isTrue();
        assertThat(endpoint.path("inbox").path("path").asString()).isEqualTo(INBOX.toString());
        assertThat(endpoint.path("queues").path("broker").asString()).isEqualTo("embedded");
        assertThat(endpoint.path("queues").path("input").path("name").asString()).isEqualTo(INPUT_QUEUE);
        assertThat(endpoint.path("queues").path("output").path("name").asString()).isEqualTo(OUTPUT_QUEUE);
        assertThat(endpoint.path("queues").path("dead_letter").path("depth").isNumber()).isTrue();
    }

    /** The status command on the service's database, inbox and queues. */
    private static CliRun status(String... options) {
        List<String> args = new ArrayList<>(List.of("status", "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(),
                "--db-password", DATABASE.password(), "--inbox", INBOX.toString(), "--input-queue", INPUT_QUEUE,
                "--output-queue", OUTPUT_QUEUE, "--dead-letter-queue", DEAD_LETTER_QUEUE,
                "--broker-credentials", BROKER_CREDENTIALS.toString()));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static CliRun verifyChain() {
        return CliRun.of("verify-chain", "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(),
                "--db-password", DATABASE.password());
    }

    private static JsonNode statusJson(String broker) {
        CliRun run = status("--json", "--broker", broker);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return JSON.readTree(run.out());
    }

    private static long sum(JsonNode counts) {
        long sum = 0;
        for (JsonNode count : counts) {
            sum += count.asLong();
        }
        return sum;
    }

    private static long sealSeqOf(String requestId) {
        return SQL.queryForObject("""
                SELECT s.seq FROM claimguard.audit_seal s JOIN claimguard.verification_audit a ON a.id = s.audit_id
                WHERE a.request_id = ?""", Long.class, requestId);
    }

    /** Every field's path in the document, values aside. */
    private static Set<String> fieldNames(JsonNode node, String path) {
        Set<String> names = new TreeSet<>();
        for (Iterator<String> fields = node.propertyNames().iterator(); fields.hasNext(); ) {
            String name = fields.next();
            names.add(path + name);
            names.addAll(fieldNames(node.path(name), path + name + "."));
        }
        return names;
    }
}
