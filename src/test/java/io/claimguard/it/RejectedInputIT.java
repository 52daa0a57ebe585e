package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of bad input, through both entry points: recorded with its exact bytes, never audited nor forwarded. */
class RejectedInputIT extends ServiceTestSupport {

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("not-utf8", new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}, "not_utf8"),
                Arguments.of("not-json", utf8("{\"request_id\": \"r-1\", verifier_output: {}}"), "not_json"),
                Arguments.of("empty", new byte[0], "not_json"),
                Arguments.of("not-an-object", utf8("[{\"request_id\": \"r-1\", \"verifier_output\": {}}]"), "not_an_object"),
                Arguments.of("too-large", utf8("{\"request_id\": \"r-1\", \"verifier_output\": {\"rationale\": \""
                        + "x".repeat(1_048_576) + "\"}}"), "too_large"),
                Arguments.of("too-deep", utf8("{\"request_id\": \"r-1\", \"verifier_output\": {\"x\": "
                        + "[".repeat(63) + "]".repeat(63) + "}}"), "too_deep"),
                Arguments.of("request-id-missing", utf8("{\"verifier_output\": {\"verdict\": \"PASS\"}}"), "request_id.missing"),
                Arguments.of("request-id-invalid", utf8("{\"request_id\": \"../etc/passwd\", \"verifier_output\": {}}"),
                        "request_id.invalid"),
                Arguments.of("verifier-output-missing", utf8("{\"request_id\": \"r-1\"}"), "verifier_output.missing"),
                Arguments.of("verifier-output-not-object", utf8("{\"request_id\": \"r-1\", \"verifier_output\": \"PASS\"}"),
                        "verifier_output.not_object"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    @DisplayName("Scenario: A rejected file is recorded in dead_letter with its exact bytes and moved to .error")
    void rejectedFileIsDeadLetteredAndMovedToError(String kind, byte[] payload, String reasonCode) throws Exception {
        String name = uniqueId(kind) + ".json";
        dropFile(name, payload);

        Map<String, Object> deadLetter = awaitDeadLetter(name);
        assertThat(deadLetter).containsEntry("source", "file").containsEntry("reason_code", reasonCode);
        assertThat((byte[]) deadLetter.get("payload")).isEqualTo(payload);
        assertThat((String) deadLetter.get("reason")).isNotBlank();
        await().atMost(PATIENCE).until(() -> Files.exists(error(name)));
        assertThat(Files.readAllBytes(error(name))).isEqualTo(payload);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE source_ref = ?",
                Long.class, name)).isZero();
        try (Stream<java.nio.file.Path> outbox = Files.list(OUTBOX.toFile().exists() ? OUTBOX : WORK)) {
            assertThat(outbox.map(path -> path.getFileName().toString())).noneMatch(file -> file.contains(name));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    @DisplayName("Scenario: A rejected JMS message ends on the dead-letter queue and in dead_letter")
    void rejectedMessageEndsOnDeadLetterQueue(String kind, byte[] payload, String reasonCode) throws Exception {
        String testCase = uniqueId(kind);
        sendBytes(payload, testCase);

        DeadLetterMessage dead = receiveDeadLetter(testCase);
        assertThat(dead).as("message on the dead-letter queue").isNotNull();
        assertThat(dead.body()).isEqualTo(payload);
        assertThat(dead.reason()).startsWith(reasonCode + ": ");
        String messageId = SQL.queryForObject("SELECT source_ref FROM claimguard.dead_letter WHERE source = 'jms'"
                + " AND payload = ? AND reason_code = ? ORDER BY id DESC LIMIT 1", String.class, payload, reasonCode);
        assertThat(messageId).startsWith("ID:");
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.verification_audit WHERE source_ref = ?",
                Long.class, messageId)).isZero();
    }

    @org.junit.jupiter.api.Test
    @DisplayName("Scenario: A rejected input does not hold up the inputs behind it")
    void rejectedInputDoesNotHoldUpTheNext() {
        String bad = uniqueId("bad-first") + ".json";
        String requestId = uniqueId("good-after-bad");
        dropFile(bad, utf8("not json at all"));
        dropFile(requestId + ".json", utf8(gatekeeperFailedV2(requestId)));
        sendText("{also not json", uniqueId("bad-jms-first"));
        String jmsRequestId = uniqueId("good-jms-after-bad");
        sendText(gatekeeperFailedV2(jmsRequestId), jmsRequestId);

        awaitDeadLetter(bad);
        awaitAuditRow(requestId);
        awaitAuditRow(jmsRequestId);
    }
}
