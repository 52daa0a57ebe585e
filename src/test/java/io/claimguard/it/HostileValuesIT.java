package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.domain.OutboxName;
import io.claimguard.testkit.Envelopes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Values that try to be SQL, shell or paths are data: stored literally, and no file lands outside inbox and outbox. */
class HostileValuesIT extends ServiceTestSupport {

    private static final String SQL_TEXT = "x'); DELETE FROM claimguard.claim_check; DROP TABLE claimguard.verification_audit; --";
    private static final String SHELL_TEXT = "$(touch /tmp/claimguard-pwned) `id` ; rm -rf / | cat /etc/passwd && echo \"$HOME\"";

    @Test
    @DisplayName("Scenario: SQL and shell text in claims is stored literally")
    void sqlAndShellTextIsStoredLiterally() {
        String requestId = uniqueId("hostile-claims");
        String envelope = """
                {"request_id": "%s",
                 "verifier_input": {"executor_output_parse_status": {"status": "ok"}, "gatekeeper_result": {"status": "pass"}},
                 "verifier_output": {"verdict": "PASS", "claim_checks": [
                   {"claim_id": "%s", "claim_text": "%s", "claim_type": "symptom", "verification": "direct_observation",
                    "detail": "%s"}]}}
                """.formatted(requestId, json(SQL_TEXT), json(SHELL_TEXT), json(SQL_TEXT + SHELL_TEXT));
        sendText(envelope, requestId);

        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
        Map<String, Object> claim = SQL.queryForMap(
                "SELECT claim_id, claim_text, detail FROM claimguard.claim_check WHERE audit_id = ?", auditId);
        assertThat(claim).containsEntry("claim_id", SQL_TEXT).containsEntry("claim_text", SHELL_TEXT)
                .containsEntry("detail", SQL_TEXT + SHELL_TEXT);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.claim_check", Long.class)).isPositive();
        assertThat(Files.exists(Path.of("/tmp/claimguard-pwned"))).isFalse();
    }

    @Test
    @DisplayName("Scenario: A request_id carrying SQL or a path is rejected and recorded literally")
    void hostileRequestIdsAreRejectedAndRecordedLiterally() {
        for (String requestId : List.of("r'; DROP TABLE claimguard.dead_letter; --", "../../etc/passwd", "a/b", "$(id)", "x\u0000y")) {
            String testCase = uniqueId("hostile-id");
            byte[] payload = utf8("{\"request_id\": \"" + json(requestId) + "\", \"verifier_output\": {\"verdict\": \"PASS\"}}");
            sendBytes(payload, testCase);
            DeadLetterMessage dead = receiveDeadLetter(testCase);
            assertThat(dead).as(requestId).isNotNull();
            assertThat(dead.body()).isEqualTo(payload);
            assertThat(dead.reason()).startsWith("request_id.invalid: ");
        }
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.dead_letter", Long.class)).isPositive();
    }

    @Test
    @DisplayName("Scenario: Hostile file names and dot request ids never write outside the inbox and outbox")
    void hostileNamesStayInsideTheInboxAndOutbox() throws IOException {
        List<String> names = List.of("$(touch pwned).json", "a;b|c&d>e.json", "'single' \"double\".json", "a..b...json",
                "-rf --no-preserve-root.json", "sp ace\ttab.json", "\u00e9t\u00e9 \u2603.json");
        for (int i = 0; i < names.size(); i++) {
            dropFile(names.get(i), utf8(Envelopes.passingV1(uniqueId("hostile-name-" + i))));
        }
        // request ids of dots only are valid, and must still name a file inside the outbox
        String dots = ".." + uniqueId("").replace("-", ".");
        dropFile(uniqueId("dots") + ".json", utf8(Envelopes.passingV1(dots)));

        for (String name : names) {
            await().atMost(PATIENCE).until(() -> Files.exists(done(name)));
            assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE source_ref = ?",
                    Long.class, name)).as(name).isEqualTo(1);
        }
        long dotsAuditId = ((Number) awaitAuditRow(dots).get("id")).longValue();
        Path dotsResult = OUTBOX.resolve(OutboxName.of(dots, dotsAuditId));
        await().atMost(PATIENCE).until(() -> Files.exists(dotsResult));
        assertThat(dotsResult.toRealPath().getParent()).isEqualTo(OUTBOX.toRealPath());
        assertThat(dotsResult.getFileName().toString()).startsWith("%2E.");

        try (Stream<Path> everything = Files.walk(WORK)) {
            assertThat(everything.map(WORK::relativize).map(Path::toString))
                    .allMatch(path -> path.isEmpty() || path.startsWith("inbox") || path.startsWith("outbox")
                            || path.startsWith("artemis"))
                    .noneMatch(path -> path.endsWith("pwned"));
        }
        assertThat(Files.exists(Path.of("pwned"))).isFalse();
    }

    private static String json(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (c < 0x20) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
