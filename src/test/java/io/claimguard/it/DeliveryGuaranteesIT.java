package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.jms.Message;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class DeliveryGuaranteesIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("Scenario: A byte-identical redelivery makes no second row and is forwarded with the same audit_id")
    void identicalRedeliveryIsANoOp() throws Exception {
        String requestId = uniqueId("redelivered");
        String envelope = gatekeeperFailedV2(requestId);
        sendText(envelope, requestId);
        Message first = receiveResult(requestId);
        sendText(envelope, requestId);
        Message second = receiveResult(requestId);
        dropFile(requestId + ".json", utf8(envelope));

        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        long auditId = JSON.readTree(text(first)).get("audit_id").asLong();
        assertThat(JSON.readTree(text(second)).get("audit_id").asLong()).isEqualTo(auditId);
        await().atMost(PATIENCE).until(() -> Files.exists(done(requestId + ".json")));
        assertThat(Files.exists(OUTBOX.resolve(requestId + "." + auditId + ".json"))).isTrue();
        assertThat(auditRows(requestId)).hasSize(1);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.claim_check WHERE audit_id = ?", Long.class, auditId))
                .isEqualTo(2);
    }

    @Test
    @DisplayName("Scenario: Identical inputs processed at the same moment make one row")
    void concurrentIdenticalInputsMakeOneRow() throws Exception {
        String requestId = uniqueId("concurrent");
        String envelope = gatekeeperFailedV2(requestId);
        for (int copy = 0; copy < 6; copy++) {
            sendText(envelope, requestId);
        }

        java.util.Set<Long> auditIds = new java.util.HashSet<>();
        for (int copy = 0; copy < 6; copy++) {
            Message result = receiveResult(requestId);
            assertThat(result).as("result of copy " + copy).isNotNull();
            auditIds.add(JSON.readTree(text(result)).get("audit_id").asLong());
        }
        assertThat(auditIds).hasSize(1);
        assertThat(auditRows(requestId)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: Another envelope with the same request_id is another attempt with its own row")
    void anotherAttemptGetsItsOwnRow() {
        String requestId = uniqueId("attempts");
        sendText(gatekeeperFailedV2(requestId), requestId);
        sendText(passingV1(requestId), requestId);

        await().atMost(PATIENCE).until(() -> auditRows(requestId).size() == 2);
        assertThat(auditRows(requestId)).extracting(row -> row.get("effective_verdict"))
                .containsExactlyInAnyOrder("REJECT", "PASS");
    }

    @Test
    @DisplayName("Scenario: An input PostgreSQL refuses is dead-lettered at once and holds nothing up")
    void inputTheDatabaseRefusesIsDeadLettered() throws Exception {
        refuseRequestIdsWithRefusedPrefix();
        String requestId = uniqueId(REFUSED_PREFIX + "poison");
        String poison = passingV1(requestId);
        String name = requestId + ".json";
        dropFile(name, utf8(poison));
        String testCase = uniqueId(REFUSED_PREFIX + "poison-jms");
        sendText(poison.replace(requestId, testCase), testCase);
        String behind = uniqueId("behind-poison");
        sendText(passingV1(behind), behind);

        Map<String, Object> fileDeadLetter = awaitDeadLetter(name);
        assertThat(fileDeadLetter).containsEntry("reason_code", "processing_failed");
        // a data refusal cannot succeed on a retry: dead-lettered at the first failure
        assertThat((String) fileDeadLetter.get("reason")).startsWith("processing failed after 1 attempt: ")
                .contains("test_refuses_request_id");
        assertThat((byte[]) fileDeadLetter.get("payload")).isEqualTo(utf8(poison));
        await().atMost(PATIENCE).until(() -> Files.exists(error(name)));
        DeadLetterMessage dead = receiveDeadLetter(testCase);
        assertThat(dead).isNotNull();
        assertThat(dead.reason()).startsWith("processing_failed: ");
        awaitAuditRow(behind);
        assertThat(auditRows(requestId)).isEmpty();
        assertThat(auditRows(testCase)).isEmpty();
    }

    @Test
    @DisplayName("Scenario: While PostgreSQL is unreachable inputs wait, and land once it is back, without a restart")
    void inputsWaitThroughADatabaseOutage() throws Exception {
        String jmsRequestId = uniqueId("outage-jms");
        String fileRequestId = uniqueId("outage-file");
        DATABASE_PROXY.cut();
        try {
            sendText(gatekeeperFailedV2(jmsRequestId), jmsRequestId);
            dropFile(fileRequestId + ".json", utf8(passingV1(fileRequestId)));
            // Nothing may be acknowledged, dead-lettered or forwarded while the database is away.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
                    Files.exists(INBOX.resolve(fileRequestId + ".json"))
                            && !Files.exists(error(fileRequestId + ".json"))
                            && deadLetters(fileRequestId + ".json").isEmpty()
                            && auditRows(jmsRequestId).isEmpty());
        } finally {
            DATABASE_PROXY.restore();
        }

        awaitAuditRow(jmsRequestId);
        awaitAuditRow(fileRequestId);
        assertThat(receiveResult(jmsRequestId)).isNotNull();
        await().atMost(PATIENCE).until(() -> Files.exists(done(fileRequestId + ".json")));
        assertThat(auditRows(jmsRequestId)).hasSize(1);
        assertThat(auditRows(fileRequestId)).hasSize(1);
    }
}
