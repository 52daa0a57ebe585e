package io.claimguard.testkit;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.claimguard.domain.Envelope;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.LegacyProjection;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Projection;
import io.claimguard.domain.Verification;
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
 * The one envelope builder of the tests: starts from an envelope that no guard rule objects to and changes one
 * thing; or, for tests that go through the running service, gives a whole envelope with a request id of the test's
 * own ({@link #gatekeeperFailedV2}, {@link #passingV1}).
 *
 * <p>JSON values are written with single quotes ({@code "{'status': 'fail'}"}) so that tests stay readable;
 * the envelope handed to the reader is always standard JSON.
 */
public final class Envelopes {

    public static final EnvelopeReader READER = new EnvelopeReader(Limits.DEFAULTS);
    /** Keeps number digits as written, as the envelope reader does, so that tests can put 0.620 in an envelope. */
    private static final JsonMapper SINGLE_QUOTED = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private final ObjectNode root;

    private Envelopes(ObjectNode root) {
        this.root = root;
    }

    /** Request req-1, gatekeeper pass, executor output parsed ok, model verdict PASS, no claims and no facts. */
    public static Envelopes clean() {
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

    private static Envelopes of(String singleQuotedJson) {
        return new Envelopes((ObjectNode) json(singleQuotedJson));
    }

    /** The realistic V2 envelope of src/test/resources/envelopes: five claim checks on "why is checkout slow?". */
    public static byte[] checkoutSlowV2() {
        try (InputStream in = Envelopes.class.getResourceAsStream("/envelopes/checkout-slow-v2.json")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(String singleQuotedJson) {
        return SINGLE_QUOTED.readTree(singleQuotedJson);
    }

    /** A claim check with the four fields every test cares about; detail and evidence_refs are left out. */
    public static String claimCheck(String claimId, String claimText, String claimType, String verification) {
        return "{'claim_id': '" + claimId + "', 'claim_text': '" + claimText + "', 'claim_type': '" + claimType
                + "', 'verification': '" + verification + "'}";
    }

    public static String claimCheckVerifiedAs(String verification) {
        return claimCheck("claim-1", "payment-service CPU usage is high", "symptom", verification);
    }

    public Envelopes set(String field, String valueJson) {
        root.set(field, json(valueJson));
        return this;
    }

    public Envelopes remove(String field) {
        root.remove(field);
        return this;
    }

    public Envelopes input(String field, String valueJson) {
        root.withObjectProperty("verifier_input").set(field, json(valueJson));
        return this;
    }

    public Envelopes withoutInput(String field) {
        root.withObjectProperty("verifier_input").remove(field);
        return this;
    }

    public Envelopes output(String field, String valueJson) {
        root.withObjectProperty("verifier_output").set(field, json(valueJson));
        return this;
    }

    public Envelopes withoutOutput(String field) {
        root.withObjectProperty("verifier_output").remove(field);
        return this;
    }

    public Envelopes claimChecks(String... checks) {
        return output("claim_checks", "[" + String.join(", ", checks) + "]");
    }

    public byte[] bytes() {
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    public Envelope read() {
        return read(bytes());
    }

    public Verification verify() {
        return Verification.of(read());
    }

    public GuardDecision guard() {
        return verify().guard();
    }

    public Projection projection() {
        return LegacyProjection.project(read().verifierOutput());
    }

    public static Envelope read(byte[] input) {
        try {
            return READER.read(input);
        } catch (EnvelopeRejectedException e) {
            throw new AssertionError("expected the envelope to be accepted, but it was rejected: " + e.describe(), e);
        }
    }

    public static EnvelopeRejectedException rejectionOf(byte[] input) {
        EnvelopeRejectedException rejection = catchThrowableOfType(EnvelopeRejectedException.class, () -> READER.read(input));
        if (rejection == null) {
            throw new AssertionError("expected the input to be rejected, but it was accepted");
        }
        return rejection;
    }

    public static EnvelopeRejectedException rejectionOf(String input) {
        return rejectionOf(input.getBytes(StandardCharsets.UTF_8));
    }

    /** A V2 result the gatekeeper failed on evidence.invocation_ref: the model's PASS must become REJECT. */
    public static String gatekeeperFailedV2(String requestId) {
        return """
                {"request_id": "%s",
                 "verifier_input": {
                   "original_query": "why is checkout slow?",
                   "executor_output_parse_status": {"status": "ok"},
                   "gatekeeper_result": {"status": "fail", "failures": [
                     {"check": "evidence.invocation_ref", "detail": "invocation 395 is not in the trace"}]}
                 },
                 "verifier_output": {
                   "verdict": "PASS", "groundedness_score": 0.62, "critical_fact_count": 1,
                   "claim_checks": [
                     {"claim_id": "claim-1", "claim_text": "payment-service CPU usage is high", "claim_type": "symptom",
                      "verification": "direct_observation", "detail": "query_metrics shows CPU=92%%",
                      "evidence_refs": [{"trace_ref": "trace-1", "tool_name": "query_metrics",
                                         "source_invocation_ids": [394], "note": "CPU=92%%"}]},
                     {"claim_id": "claim-2", "claim_text": "a deploy at 10:02 caused it", "claim_type": "root_cause",
                      "verification": "external_unknown", "detail": "no deploy in the traces"}
                   ],
                   "hypothesis_checks": [{"hypothesis": "connection pool exhaustion", "status": "open"}],
                   "rationale": "CPU is observed; the deploy is not.",
                   "model_notes": {"kept": "as received"}
                 },
                 "producer": "verifier-v2"}
                """.formatted(requestId);
    }

    /** A clean V1 result: gatekeeper pass, parse ok, legacy facts only; the model's PASS stands. */
    public static String passingV1(String requestId) {
        return """
                {"request_id": "%s",
                 "verifier_input": {"executor_output_parse_status": {"status": "OK"}, "gatekeeper_result": {"status": "Pass"}},
                 "verifier_output": {"verdict": "pass", "groundedness_score": 0.9, "critical_fact_count": 1,
                   "facts_checked": [{"fact": "CPU is high", "is_critical": true, "verification": "direct_evidence",
                                      "detail": "CPU=92%%", "evidence_refs": []}],
                   "rationale": "grounded"}}
                """.formatted(requestId);
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
