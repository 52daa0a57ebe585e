package io.claimguard.domain;

import static io.claimguard.testkit.Envelopes.read;
import static io.claimguard.testkit.Envelopes.rejectionOf;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.claimguard.testkit.Envelopes;
import java.io.ByteArrayOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** Proves openspec/specs/envelope-intake/spec.md. */
class EnvelopeIntakeTest {

    private static final String MINIMAL = """
            {"request_id": "req-1", "verifier_output": {}}""";

    @Test
    @DisplayName("Scenario: Minimal envelope is accepted")
    void minimalEnvelopeIsAccepted() {
        Envelope envelope = read(MINIMAL.getBytes(UTF_8));

        assertThat(envelope.requestId()).isEqualTo("req-1");
        assertThat(envelope.verifierOutput().isEmpty()).isTrue();
        assertThat(envelope.verifierInput().isMissingNode()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Complete V2 envelope is accepted")
    void completeV2EnvelopeIsAccepted() {
        Envelope envelope = read(Envelopes.checkoutSlowV2());

        assertThat(envelope.requestId()).isEqualTo("chat-7f3a9c.req-0042");
        assertThat(envelope.verifierInput().propertyNames()).containsExactly("original_query", "executor_final_answer",
                "executor_structured_output", "executor_output_parse_status", "tool_trace_summary", "gatekeeper_result",
                "retry_context");
        assertThat(envelope.verifierInput().at("/tool_trace_summary/1/invocation_ids/1").asInt()).isEqualTo(396);
        assertThat(envelope.verifierOutput().path("claim_checks").size()).isEqualTo(5);
        assertThat(envelope.verifierOutput().at("/claim_checks/1/detail").stringValue())
                .isEqualTo("query_metrics shows CPU=92% at 14:20");
        assertThat(envelope.verifierOutput().path("hypothesis_checks").size()).isEqualTo(1);
    }

    @Test
    @DisplayName("Scenario: Request id uses every allowed character class")
    void requestIdUsesEveryAllowedCharacterClass() {
        Envelope envelope = read(withRequestId("\"Chat_2026-12-02.req:42\""));

        assertThat(envelope.requestId()).isEqualTo("Chat_2026-12-02.req:42");
    }

    @Test
    @DisplayName("Scenario: Fields the contract does not name are kept")
    void fieldsTheContractDoesNotNameAreKept() {
        String text = """
                {"request_id": "req-1", "producer": {"name": "superbiz-agent", "version": "3.2.0"},
                 "verifier_input": {"trace_budget_ms": 1500},
                 "verifier_output": {"verdict": "PASS", "model": "verifier-v2-2026-11"}}""";

        Envelope envelope = read(text.getBytes(UTF_8));

        assertThat(envelope.root().at("/producer/name").stringValue()).isEqualTo("superbiz-agent");
        assertThat(envelope.root().at("/producer/version").stringValue()).isEqualTo("3.2.0");
        assertThat(envelope.verifierInput().path("trace_budget_ms").asInt()).isEqualTo(1500);
        assertThat(envelope.verifierOutput().path("model").stringValue()).isEqualTo("verifier-v2-2026-11");
        assertThat(envelope.json()).isEqualTo(text);
    }

    @Test
    @DisplayName("Scenario: Number digits are kept as received")
    void numberDigitsAreKeptAsReceived() {
        String thirtyDigits = "123456789012345678901234567890";
        Envelope envelope = read(("""
                {"request_id": "req-1", "verifier_output": {"groundedness_score": 0.620, "critical_fact_count": %s}}"""
                .formatted(thirtyDigits)).getBytes(UTF_8));

        assertThat(envelope.verifierOutput().get("groundedness_score").toString()).isEqualTo("0.620");
        assertThat(envelope.verifierOutput().get("critical_fact_count").toString()).isEqualTo(thirtyDigits);
    }

    @Test
    @DisplayName("Scenario: Leading byte order mark is ignored")
    void leadingByteOrderMarkIsIgnored() {
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
        input.writeBytes(MINIMAL.getBytes(UTF_8));

        Envelope envelope = read(input.toByteArray());

        assertThat(envelope.requestId()).isEqualTo("req-1");
        assertThat(envelope.json()).startsWith("{").isEqualTo(MINIMAL);
    }

    @Test
    @DisplayName("Scenario: Duplicate key keeps the last value")
    void duplicateKeyKeepsTheLastValue() {
        Envelope envelope = read("""
                {"request_id": "req-first", "verifier_output": {}, "request_id": "req-last"}""".getBytes(UTF_8));

        assertThat(envelope.requestId()).isEqualTo("req-last");
    }

    @Test
    @DisplayName("Scenario: Input is not UTF-8")
    void inputIsNotUtf8() {
        String text = """
                {"request_id": "req-1", "verifier_output": {"rationale": "the café cache is cold"}}""";
        byte[] latin1 = text.getBytes(ISO_8859_1);
        int offsetOfE9 = text.indexOf('é');

        EnvelopeRejectedException rejection = rejectionOf(latin1);

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_UTF8);
        assertThat(rejection.getMessage()).contains("not valid UTF-8", "at byte offset " + offsetOfE9);
    }

    @Test
    @DisplayName("Scenario: Input is not JSON")
    void inputIsNotJson() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1", "verifier_output": {"verdict": PASS}}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(rejection.getMessage()).startsWith("input is not valid JSON: ").contains("PASS", "(line 1, column ");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("syntaxErrors")
    @DisplayName("Scenario: Syntax errors are worded for people")
    void syntaxErrorsAreWordedForPeople(String input, String reason) {
        assertThat(rejectionOf(input).describe()).isEqualTo(reason);
    }

    static Stream<Arguments> syntaxErrors() {
        String envelope = "{\"request_id\": \"req-1\", \"verifier_output\": ";
        String notJson = "not_json: input is not valid JSON: ";
        String anyValue = "expected a JSON value (string, number, object, array, true, false or null)";
        return Stream.of(
                Arguments.of(envelope + "{\"verdict\": \"PASS\"}", notJson + "unexpected end of input, expected a closing '}' (line 1, column 63)"),
                Arguments.of("{\"a\": [1, 2", notJson + "unexpected end of input, expected a closing ']' (line 1, column 12)"),
                Arguments.of("{\"a\": [1, 2}", notJson + "unexpected '}', expected a closing ']' (line 1, column 12)"),
                Arguments.of("}", notJson + "unexpected '}' with no open object to close (line 1, column 1)"),
                Arguments.of(envelope + "{}} garbage", notJson + "unrecognized token 'garbage', " + anyValue + " (line 1, column 48)"),
                Arguments.of("true false", notJson + "more content after the end of the first JSON value (line 1, column 6)"),
                Arguments.of(envelope + "{\"verdict\": \"PASS}}",
                        notJson + "unexpected end of input inside a string, expected a closing '\"' (line 1, column 63)"),
                Arguments.of("{\"a\":", notJson + "unexpected end of input inside an object (line 1, column 6)"),
                Arguments.of("{\"a", notJson + "unexpected end of input inside a property name (line 1, column 4)"),
                Arguments.of("{\"a\": \"x\u0001y\"}",
                        notJson + "control character U+0001 inside a string must be escaped with a backslash (line 1, column 9)"),
                Arguments.of("{\"a\": 1}\u0000", notJson + "unexpected character U+0000 between tokens: only space, tab, line feed and"
                        + " carriage return may stand there (line 1, column 9)"),
                Arguments.of("{\"a\": \"\\q\"}", notJson + "invalid escape: a backslash may not be followed by 'q' (line 1, column 9)"),
                Arguments.of("{\"a\": \"\\u12G4\"}", notJson + "unexpected character 'G', expected a hex digit in a \\u escape (line 1, column 12)"),
                Arguments.of("{\"a\": 01}", notJson + "invalid number, leading zeros are not allowed (line 1, column 8)"),
                Arguments.of("{\"a\": 1.}", notJson + "unexpected character '}' in a number, expected a digit after the decimal point (line 1, column 8)"),
                Arguments.of("{\"a\": 1e}", notJson + "unexpected character '}' in a number, expected a digit in the exponent (line 1, column 8)"),
                Arguments.of("{\"a\": -}", notJson + "unexpected character '}' in a number, expected a digit after the minus sign (line 1, column 8)"),
                Arguments.of("{\"a\": +1}", notJson + "unexpected character '+' in a number, a number must not start with a plus sign (line 1, column 8)"),
                Arguments.of("{\"a\": NaN}", notJson + "'NaN' is not a JSON number (JSON has no NaN or Infinity) (line 1, column 10)"),
                Arguments.of("{\"a\": 1 2}", notJson + "unexpected character '2', expected a comma between the entries of an object (line 1, column 9)"),
                Arguments.of("{\"a\" 1}", notJson + "unexpected character '1', expected ':' between a property name and its value (line 1, column 6)"),
                Arguments.of("{'a': 1}", notJson + "unexpected character ''', expected '\"' to start a property name (line 1, column 2)"),
                Arguments.of("// note\n{}", notJson + "unexpected character '/', comments are not allowed in JSON (line 1, column 1)"),
                Arguments.of("\n\n  {\"a\": }", notJson + "unexpected character '}', " + anyValue + " (line 3, column 9)"));
    }

    @Test
    @DisplayName("Scenario: Input is empty")
    void inputIsEmpty() {
        EnvelopeRejectedException rejection = rejectionOf(new byte[0]);

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(rejection.getMessage()).isEqualTo("input is empty: expected one JSON object");
    }

    @Test
    @DisplayName("Scenario: Input holds only white space")
    void inputHoldsOnlyWhiteSpace() {
        EnvelopeRejectedException rejection = rejectionOf("  \r\n\t \n");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(rejection.getMessage()).isEqualTo("input holds only white space: expected one JSON object");
    }

    @Test
    @DisplayName("Scenario: Input holds two JSON values")
    void inputHoldsTwoJsonValues() {
        EnvelopeRejectedException rejection = rejectionOf(MINIMAL + " {}");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(rejection.getMessage())
                .isEqualTo("input is not valid JSON: more content after the end of the first JSON value (line 1, column 48)");
    }

    @Test
    @DisplayName("Scenario: Number beyond the representable range")
    void numberBeyondTheRepresentableRange() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1", "verifier_output": {"groundedness_score": 1e2147483648}}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(rejection.getMessage())
                .isEqualTo("input holds a number that cannot be represented: 1e2147483648, its exponent is out of range");
    }

    @Test
    @DisplayName("Scenario: Input is a JSON array")
    void inputIsAJsonArray() {
        EnvelopeRejectedException rejection = rejectionOf("[" + MINIMAL + "]");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_AN_OBJECT);
        assertThat(rejection.getMessage()).isEqualTo("input must be a JSON object, got an array");
    }

    @Test
    @DisplayName("Scenario: Input is a JSON scalar")
    void inputIsAJsonScalar() {
        EnvelopeRejectedException rejection = rejectionOf("\"req-1\"");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_AN_OBJECT);
        assertThat(rejection.getMessage()).isEqualTo("input must be a JSON object, got a string");
    }

    @Test
    @DisplayName("Scenario: Input larger than max-bytes is rejected")
    void inputLargerThanMaxBytesIsRejected() {
        EnvelopeRejectedException rejection = rejectionOf(envelopeOfSize(1_048_577));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.TOO_LARGE);
        assertThat(rejection.getMessage()).contains("1048577 bytes", "limit of 1048576 bytes");
    }

    @Test
    @DisplayName("Scenario: Input of exactly max-bytes is accepted")
    void inputOfExactlyMaxBytesIsAccepted() {
        byte[] input = envelopeOfSize(1_048_576);

        assertThat(input).hasSize(Limits.DEFAULTS.maxBytes());
        assertThat(read(input).requestId()).isEqualTo("req-1");
    }

    @Test
    @DisplayName("Scenario: Input nested deeper than max-depth is rejected")
    void inputNestedDeeperThanMaxDepthIsRejected() {
        EnvelopeRejectedException rejection = rejectionOf(envelopeNestedTo(65));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.TOO_DEEP);
        assertThat(rejection.getMessage()).contains("deeper than the limit of 64 levels");
    }

    @Test
    @DisplayName("Scenario: Input nested exactly max-depth deep is accepted")
    void inputNestedExactlyMaxDepthDeepIsAccepted() {
        Envelope envelope = read(envelopeNestedTo(64));

        JsonNode deepest = envelope.verifierOutput().get("nested");
        int depth = 2;
        while (deepest.isArray()) {
            depth++;
            deepest = deepest.path(0);
        }
        assertThat(depth).isEqualTo(64);
    }

    @Test
    @DisplayName("Scenario: Configured limits replace the defaults")
    void configuredLimitsReplaceTheDefaults() throws EnvelopeRejectedException {
        EnvelopeReader reader = new EnvelopeReader(new Limits(512, 4));

        assertThat(rejectionBy(reader, envelopeOfSize(513)).reason()).isEqualTo(RejectionReason.TOO_LARGE);
        assertThat(reader.read(envelopeOfSize(512)).requestId()).isEqualTo("req-1");
        assertThat(rejectionBy(reader, envelopeNestedTo(5)).reason()).isEqualTo(RejectionReason.TOO_DEEP);
        assertThat(reader.read(envelopeNestedTo(4)).requestId()).isEqualTo("req-1");
    }

    @Test
    @DisplayName("Scenario: request_id is missing")
    void requestIdIsMissing() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"verifier_output": {}}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_MISSING);
        assertThat(rejection.getMessage()).contains("request_id is missing", "[A-Za-z0-9._:-]{1,128}");
    }

    @Test
    @DisplayName("Scenario: request_id has a character outside the set")
    void requestIdHasACharacterOutsideTheSet() {
        EnvelopeRejectedException rejection = rejectionOf(withRequestId("\"req/1\""));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_INVALID);
        assertThat(rejection.getMessage()).contains("including '/'");
    }

    @Test
    @DisplayName("Scenario: request_id with a trailing line break is rejected")
    void requestIdWithATrailingLineBreakIsRejected() {
        EnvelopeRejectedException rejection = rejectionOf(withRequestId("\"req-1\\n\""));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_INVALID);
        assertThat(rejection.getMessage()).contains("including U+000A");
    }

    @Test
    @DisplayName("Scenario: request_id is longer than 128 characters")
    void requestIdIsLongerThan128Characters() {
        EnvelopeRejectedException rejection = rejectionOf(withRequestId("\"" + "r".repeat(129) + "\""));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_INVALID);
        assertThat(rejection.getMessage()).contains("got 129 characters, more than 128");
    }

    @Test
    @DisplayName("Scenario: request_id of exactly 128 characters is accepted")
    void requestIdOfExactly128CharactersIsAccepted() {
        String requestId = "r".repeat(128);

        assertThat(read(withRequestId("\"" + requestId + "\"")).requestId()).isEqualTo(requestId);
    }

    @Test
    @DisplayName("Scenario: request_id is empty")
    void requestIdIsEmpty() {
        EnvelopeRejectedException rejection = rejectionOf(withRequestId("\"\""));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_INVALID);
        assertThat(rejection.getMessage()).contains("got an empty string");
    }

    @Test
    @DisplayName("Scenario: request_id is not a string")
    void requestIdIsNotAString() {
        EnvelopeRejectedException rejection = rejectionOf(withRequestId("42"));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_INVALID);
        assertThat(rejection.getMessage()).contains("must be a string", "got a number");
    }

    @Test
    @DisplayName("Scenario: request_id is null")
    void requestIdIsNull() {
        EnvelopeRejectedException rejection = rejectionOf(withRequestId("null"));

        assertThat(rejection.reason()).isEqualTo(RejectionReason.REQUEST_ID_INVALID);
        assertThat(rejection.getMessage()).endsWith("got null");
    }

    @Test
    @DisplayName("Scenario: verifier_output is missing")
    void verifierOutputIsMissing() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1", "verifier_input": {}}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.VERIFIER_OUTPUT_MISSING);
        assertThat(rejection.getMessage()).contains("verifier_output is missing");
    }

    @Test
    @DisplayName("Scenario: verifier_output is not an object")
    void verifierOutputIsNotAnObject() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1", "verifier_output": "PASS"}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.VERIFIER_OUTPUT_NOT_OBJECT);
        assertThat(rejection.getMessage()).isEqualTo("verifier_output must be a JSON object, got a string");
    }

    @Test
    @DisplayName("Scenario: verifier_output is null")
    void verifierOutputIsNull() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1", "verifier_output": null}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.VERIFIER_OUTPUT_NOT_OBJECT);
        assertThat(rejection.getMessage()).isEqualTo("verifier_output must be a JSON object, got null");
    }

    @Test
    @DisplayName("Scenario: Several problems report the first in check order")
    void severalProblemsReportTheFirstInCheckOrder() {
        assertThat(rejectionOf("{}").reason()).isEqualTo(RejectionReason.REQUEST_ID_MISSING);

        byte[] largeAndNotUtf8 = envelopeOfSize(1_048_577);
        largeAndNotUtf8[largeAndNotUtf8.length / 2] = (byte) 0xFF;
        assertThat(rejectionOf(largeAndNotUtf8).reason()).isEqualTo(RejectionReason.TOO_LARGE);
    }

    @Test
    @DisplayName("Scenario: Odd verifier values are accepted")
    void oddVerifierValuesAreAccepted() {
        Envelope envelope = read("""
                {"request_id": "req-1", "verifier_input": "gatekeeper passed",
                 "verifier_output": {"verdict": 1, "claim_checks": {"claim-1": "direct_observation"},
                                     "groundedness_score": "high"}}""".getBytes(UTF_8));

        assertThat(envelope.requestId()).isEqualTo("req-1");
        assertThat(envelope.verifierInput().isMissingNode()).isTrue();
        assertThat(envelope.root().path("verifier_input").stringValue()).isEqualTo("gatekeeper passed");
    }

    @Test
    @DisplayName("Scenario: Rejection describes itself as code and message")
    void rejectionDescribesItselfAsCodeAndMessage() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1"}""");

        assertThat(rejection.describe()).isEqualTo("verifier_output.missing: " + rejection.getMessage());
    }

    private static byte[] withRequestId(String requestIdJson) {
        return ("{\"request_id\": " + requestIdJson + ", \"verifier_output\": {}}").getBytes(UTF_8);
    }

    /** A valid envelope padded with an ASCII rationale to exactly {@code size} bytes. */
    private static byte[] envelopeOfSize(int size) {
        String prefix = "{\"request_id\": \"req-1\", \"verifier_output\": {\"rationale\": \"";
        String suffix = "\"}}";
        return (prefix + "x".repeat(size - prefix.length() - suffix.length()) + suffix).getBytes(UTF_8);
    }

    /** A valid envelope whose deepest array sits at {@code depth}: the envelope is depth 1, verifier_output depth 2. */
    private static byte[] envelopeNestedTo(int depth) {
        int arrays = depth - 2;
        return ("{\"request_id\": \"req-1\", \"verifier_output\": {\"nested\": " + "[".repeat(arrays) + "]".repeat(arrays) + "}}")
                .getBytes(UTF_8);
    }

    private static EnvelopeRejectedException rejectionBy(EnvelopeReader reader, byte[] input) {
        EnvelopeRejectedException rejection = catchThrowableOfType(EnvelopeRejectedException.class, () -> reader.read(input));
        assertThat(rejection).as("rejection of a %d-byte input", input.length).isNotNull();
        return rejection;
    }
}
