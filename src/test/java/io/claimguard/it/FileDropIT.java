package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.jms.Message;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class FileDropIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("Scenario: A dropped file is audited, forwarded to both outputs and moved to .done")
    void droppedFileIsAuditedForwardedAndMovedToDone() throws Exception {
        String requestId = uniqueId("file-v2");
        String name = requestId + ".json";
        dropFile(name, utf8(gatekeeperFailedV2(requestId)));

        Map<String, Object> row = awaitAuditRow(requestId);
        long auditId = ((Number) row.get("id")).longValue();
        assertThat(row).containsEntry("source", "file").containsEntry("source_ref", name)
                .containsEntry("model_verdict", "PASS").containsEntry("effective_verdict", "REJECT")
                .containsEntry("downgraded", true).containsEntry("projection_mode", "claim_checks")
                .containsEntry("groundedness_score", 0.62).containsEntry("critical_fact_count", 1);
        assertThat(SQL.queryForObject("SELECT array_to_string(guard_reasons, ',') FROM claimguard.verification_audit"
                + " WHERE id = ?", String.class, auditId)).isEqualTo("gatekeeper.invocation_ref");

        Path outboxFile = OUTBOX.resolve(requestId + "." + auditId + ".json");
        await().atMost(PATIENCE).until(() -> Files.exists(outboxFile) && Files.exists(done(name)));
        assertThat(Files.exists(INBOX.resolve(name))).isFalse();
        try (Stream<Path> leftovers = Files.list(OUTBOX)) {
            assertThat(leftovers.map(Path::getFileName).map(Path::toString)).noneMatch(file -> file.endsWith(".tmp"));
        }

        JsonNode written = JSON.readTree(Files.readString(outboxFile));
        Message message = receiveResult(requestId);
        assertThat(message).isNotNull();
        assertThat(JSON.readTree(text(message))).isEqualTo(written);
        assertThat(written.get("audit_id").asLong()).isEqualTo(auditId);
        assertThat(written.get("verdict").stringValue()).isEqualTo("REJECT");
        assertThat(written.get("model_verdict").stringValue()).isEqualTo("PASS");
        assertThat(written.at("/facts_checked/1/fact").stringValue()).isEqualTo("claim-2: a deploy at 10:02 caused it");
    }

    @Test
    @DisplayName("Scenario: The audit JSON is the envelope as received plus the effective result")
    void auditJsonIsTheEnvelopePlusTheEffectiveResult() {
        String requestId = uniqueId("file-audit-json");
        String envelope = gatekeeperFailedV2(requestId);
        dropFile(requestId + ".json", utf8(envelope));
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();

        JsonNode audit = auditJson(auditId);
        JsonNode received = JSON.readTree(envelope);
        received.properties().forEach(field ->
                assertThat(audit.get(field.getKey())).as(field.getKey()).isEqualTo(field.getValue()));
        assertThat(audit.at("/producer").stringValue()).isEqualTo("verifier-v2");
        assertThat(audit.at("/verifier_output/model_notes/kept").stringValue()).isEqualTo("as received");
        assertThat(audit.at("/verifier_output/claim_checks/0/claim_id").stringValue()).isEqualTo("claim-1");
        assertThat(audit.at("/effective_result/audit_id").asLong()).isEqualTo(auditId);
        assertThat(audit.at("/effective_result/verdict").stringValue()).isEqualTo("REJECT");
        assertThat(audit.at("/effective_result/claim_checks")).isEqualTo(audit.at("/verifier_output/claim_checks"));
        assertThat(audit.size()).isEqualTo(received.size() + 1);
    }

    @Test
    @DisplayName("Scenario: An envelope's own effective_result field is kept as it came")
    void anEnvelopesOwnEffectiveResultFieldIsKept() {
        String requestId = uniqueId("file-own-effective-result");
        String envelope = gatekeeperFailedV2(requestId)
                .replace("\"producer\": \"verifier-v2\"", "\"producer\": \"verifier-v2\", \"effective_result\": {\"mine\": true}");
        dropFile(requestId + ".json", utf8(envelope));
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();

        JsonNode audit = auditJson(auditId);
        assertThat(audit.get("effective_result")).isEqualTo(JSON.readTree("{\"mine\": true}"));
        assertThat(audit.at("/claimguard_effective_result/audit_id").asLong()).isEqualTo(auditId);
        assertThat(audit.at("/claimguard_effective_result/verdict").stringValue()).isEqualTo("REJECT");
    }

    private static JsonNode auditJson(long auditId) {
        return JSON.readTree(SQL.queryForObject(
                "SELECT audit::text FROM claimguard.verification_audit WHERE id = ?", String.class, auditId));
    }

    @Test
    @DisplayName("Scenario: Each claim check becomes one claim_check row in order")
    void eachClaimCheckBecomesOneRow() {
        String requestId = uniqueId("file-claims");
        dropFile(requestId + ".json", utf8(gatekeeperFailedV2(requestId)));
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();

        List<Map<String, Object>> claims = SQL.queryForList("SELECT ordinal, claim_id, claim_text, claim_type, verification,"
                + " legacy_verification, is_critical, detail, evidence_refs::text AS evidence_refs"
                + " FROM claimguard.claim_check WHERE audit_id = ? ORDER BY ordinal", auditId);
        assertThat(claims).hasSize(2);
        assertThat(claims.get(0)).containsEntry("ordinal", 0).containsEntry("claim_id", "claim-1")
                .containsEntry("claim_type", "symptom").containsEntry("verification", "direct_observation")
                .containsEntry("legacy_verification", "direct_evidence").containsEntry("is_critical", true)
                .containsEntry("detail", "query_metrics shows CPU=92%");
        assertThat(JSON.readTree((String) claims.get(0).get("evidence_refs")).at("/0/source_invocation_ids/0").asInt())
                .isEqualTo(394);
        assertThat(claims.get(1)).containsEntry("ordinal", 1).containsEntry("verification", "external_unknown")
                .containsEntry("legacy_verification", "no_evidence").containsEntry("is_critical", true)
                .containsEntry("evidence_refs", "[]");
    }

    @Test
    @DisplayName("Scenario: A file still being written is not read until it is complete")
    void fileStillBeingWrittenIsNotReadHalfWay() throws Exception {
        String requestId = uniqueId("file-slow");
        String name = requestId + ".json";
        Path file = INBOX.resolve(name);
        Files.createDirectories(INBOX);
        // Leading white space is valid JSON, so a half-read file would be rejected as white space only.
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        out.write(' ');
                        out.flush();
                        return deadLetters(name).isEmpty() && auditRows(requestId).isEmpty();
                    });
            out.write(utf8(gatekeeperFailedV2(requestId)));
        }
        awaitAuditRow(requestId);
        assertThat(deadLetters(name)).isEmpty();
        assertThat(auditRows(requestId)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: Files that do not end in .json, or whose name starts with a dot, are left alone")
    void otherFilesAreLeftAlone() throws IOException {
        String requestId = uniqueId("file-ignored");
        try (LogCapture log = new LogCapture()) {
            Path ignored = dropFile(requestId + ".txt", utf8(gatekeeperFailedV2(requestId)));
            Path hidden = dropFile("." + requestId + ".json", utf8(gatekeeperFailedV2(requestId)));
            // there for longer than the settle time already: named at the next poll
            FileTime past = FileTime.from(Instant.now().minusSeconds(10));
            Files.setLastModifiedTime(ignored, past);
            Files.setLastModifiedTime(hidden, past);
            String marker = uniqueId("file-after-ignored");
            dropFile(marker + ".json", utf8(gatekeeperFailedV2(marker)));

            awaitAuditRow(marker);
            await().atMost(PATIENCE).until(() -> Files.exists(done(marker + ".json")));
            await().atMost(PATIENCE).until(() -> waitingInStatus() == 0);
            // polled every 200 ms meanwhile: each named once, however often the inbox is listed
            await().atMost(PATIENCE).during(Duration.ofMillis(1500)).until(() ->
                    log.warnings(requestId + ".txt is left alone").size() == 1
                            && log.warnings("." + requestId + ".json is left alone").size() == 1);
            assertThat(Files.exists(ignored)).isTrue();
            assertThat(Files.exists(hidden)).isTrue();
            assertThat(auditRows(requestId)).isEmpty();
            assertThat(waitingInStatus()).isZero();
            Files.delete(ignored);
            Files.delete(hidden);
        }
    }

    @Test
    @DisplayName("Scenario: The result of a request id starting with dots is written under a name that is not hidden")
    void aRequestIdStartingWithDotsGetsAnOutboxNameThatIsNotHidden() throws IOException {
        String id = uniqueId("dotted");
        String oneDot = "." + id;
        String twoDots = ".." + id;
        dropFile("one-" + id + ".json", utf8(gatekeeperFailedV2(oneDot)));
        dropFile("two-" + id + ".json", utf8(gatekeeperFailedV2(twoDots)));

        long oneDotId = ((Number) awaitAuditRow(oneDot).get("id")).longValue();
        long twoDotsId = ((Number) awaitAuditRow(twoDots).get("id")).longValue();
        Path oneDotResult = OUTBOX.resolve("%2E" + id + "." + oneDotId + ".json");
        Path twoDotsResult = OUTBOX.resolve("%2E." + id + "." + twoDotsId + ".json");
        await().atMost(PATIENCE).until(() -> Files.exists(oneDotResult) && Files.exists(twoDotsResult)
                && Files.exists(done("two-" + id + ".json")));
        assertThat(Path.of(oneDotResult + ".sig")).exists();
        assertThat(Path.of(twoDotsResult + ".sig")).exists();
        assertThat(JSON.readTree(Files.readString(twoDotsResult)).get("request_id").stringValue()).isEqualTo(twoDots);
        try (Stream<Path> outbox = Files.list(OUTBOX)) {
            assertThat(outbox.map(path -> path.getFileName().toString()).filter(name -> name.contains(id)))
                    .containsExactlyInAnyOrder(oneDotResult.getFileName().toString(), oneDotResult.getFileName() + ".sig",
                            twoDotsResult.getFileName().toString(), twoDotsResult.getFileName() + ".sig");
        }
    }

    /** The inputs waiting in the inbox as the status endpoint counts them. */
    private long waitingInStatus() {
        return JSON.readTree(management("/actuator/claimguard").body()).at("/inbox/files").asLong(-1);
    }
}
