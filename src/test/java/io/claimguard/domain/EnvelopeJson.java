package io.claimguard.domain;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds envelopes for tests: starts from an envelope that no guard rule objects to and changes one thing.
 *
 * <p>JSON values are written with single quotes ({@code "{'status': 'fail'}"}) so that tests stay readable;
 * the envelope handed to the reader is always standard JSON.
 */
final class EnvelopeJson {

    static final EnvelopeReader READER = new EnvelopeReader(Limits.DEFAULTS);
    /** Keeps number digits as written, as the envelope reader does, so that tests can put 0.620 in an envelope. */
    private static final JsonMapper SINGLE_QUOTED = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private final ObjectNode root;

    private EnvelopeJson(ObjectNode root) {
        this.root = root;
    }

    /** Request req-1, gatekeeper pass, executor output parsed ok, model verdict PASS, no claims and no facts. */
    static EnvelopeJson clean() {
        return of("""
                {
                  'request_id': 'req-1',
                  'verifier_input': {
                    'original_query': 'why is checkout slow?',
                    'executor_output_parse_status': {'status': 'ok'},
                    'gatekeeper_result': {'status': 'pass', 'failures': []}
                  },
                  'verifier_output': {
                    'verdict': 'PASS',
                    'groundedness_score': 0.9,
                    'critical_fact_count': 0,
                    'rationale': 'every claim is observed in the metrics'
                  }
                }""");
    }

    private static EnvelopeJson of(String singleQuotedJson) {
        return new EnvelopeJson((ObjectNode) json(singleQuotedJson));
    }

    /** The realistic V2 envelope of src/test/resources/envelopes: five claim checks on "why is checkout slow?". */
    static byte[] checkoutSlowV2() {
        try (InputStream in = EnvelopeJson.class.getResourceAsStream("/envelopes/checkout-slow-v2.json")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String singleQuotedJson) {
        return SINGLE_QUOTED.readTree(singleQuotedJson);
    }

    /** A claim check with the four fields every test cares about; detail and evidence_refs are left out. */
    static String claimCheck(String claimId, String claimText, String claimType, String verification) {
        return "{'claim_id': '" + claimId + "', 'claim_text': '" + claimText + "', 'claim_type': '" + claimType
                + "', 'verification': '" + verification + "'}";
    }

    static String claimCheckVerifiedAs(String verification) {
        return claimCheck("claim-1", "payment-service CPU usage is high", "symptom", verification);
    }

    EnvelopeJson set(String field, String valueJson) {
        root.set(field, json(valueJson));
        return this;
    }

    EnvelopeJson remove(String field) {
        root.remove(field);
        return this;
    }

    EnvelopeJson input(String field, String valueJson) {
        root.withObjectProperty("verifier_input").set(field, json(valueJson));
        return this;
    }

    EnvelopeJson withoutInput(String field) {
        root.withObjectProperty("verifier_input").remove(field);
        return this;
    }

    EnvelopeJson output(String field, String valueJson) {
        root.withObjectProperty("verifier_output").set(field, json(valueJson));
        return this;
    }

    EnvelopeJson withoutOutput(String field) {
        root.withObjectProperty("verifier_output").remove(field);
        return this;
    }

    EnvelopeJson claimChecks(String... checks) {
        return output("claim_checks", "[" + String.join(", ", checks) + "]");
    }

    byte[] bytes() {
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    Envelope read() {
        return read(bytes());
    }

    Verification verify() {
        return Verification.of(read());
    }

    GuardDecision guard() {
        return verify().guard();
    }

    Projection projection() {
        return LegacyProjection.project(read().verifierOutput());
    }

    static Envelope read(byte[] input) {
        try {
            return READER.read(input);
        } catch (EnvelopeRejectedException e) {
            throw new AssertionError("expected the envelope to be accepted, but it was rejected: " + e.describe(), e);
        }
    }

    static EnvelopeRejectedException rejectionOf(byte[] input) {
        EnvelopeRejectedException rejection = catchThrowableOfType(EnvelopeRejectedException.class, () -> READER.read(input));
        if (rejection == null) {
            throw new AssertionError("expected the input to be rejected, but it was accepted");
        }
        return rejection;
    }

    static EnvelopeRejectedException rejectionOf(String input) {
        return rejectionOf(input.getBytes(StandardCharsets.UTF_8));
    }
}
