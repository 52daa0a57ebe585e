package io.claimguard.domain;

import static io.claimguard.testkit.Envelopes.claimCheck;
import static io.claimguard.testkit.Envelopes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.testkit.Envelopes;
import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.Verifications;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Proves openspec/specs/effective-result/spec.md, always through the written JSON text. */
class EffectiveResultTest {

    /** Reads numbers the way the envelope reader does, so that a lost digit would show. */
    private static final JsonMapper EXACT_NUMBERS = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private static final String INVOCATION_REF_FAILED = "{'status': 'fail', 'failures': [{'check': 'evidence.invocation_ref'}]}";

    @Test
    @DisplayName("Scenario: Effective result carries exactly the contract fields")
    void effectiveResultCarriesExactlyTheContractFields() {
        JsonNode result = written(Verification.of(Envelopes.read(Envelopes.checkoutSlowV2())), 42L);

        assertThat(result.isObject()).isTrue();
        assertThat(result.propertyNames()).containsExactly("audit_id", "request_id", "verdict", "model_verdict",
                "verdict_guard", "projection_mode", "groundedness_score", "critical_fact_count", "claim_checks",
                "hypothesis_checks", "facts_checked", "rationale", "findings");
    }

    @Test
    @DisplayName("Scenario: Findings follow the contract's fields with code, claim ordinal and detail")
    void findingsFollowTheContractFields() {
        Verification verification = Verifications.withFindings(Envelopes.clean()
                .claimChecks(claimCheck("claim-1", "payment-service CPU usage is at 92%", "symptom", "direct_observation")),
                Verifications.threeFindings().toArray(Finding[]::new));
        Verification without = Verifications.withFindings(verification, List.of());

        JsonNode result = written(verification, 42L);

        assertThat(result.path("findings")).isEqualTo(json("""
                [{'code': 'evidence.unknown_invocation', 'claim_ordinal': 0,
                  'detail': 'source_invocation_ids 401 is not among the invocation_ids of trace-1 [394]'},
                 {'code': 'evidence.unknown_invocation', 'claim_ordinal': 0,
                  'detail': 'source_invocation_ids 402 is not among the invocation_ids of trace-1 [394]'},
                 {'code': 'consistency.critical_fact_count_mismatch', 'claim_ordinal': null,
                  'detail': 'critical_fact_count is 3; 2 critical claims were checked'}]"""));
        // an addition: every contract field is what it is without findings
        ObjectNode contractFields = (ObjectNode) result.deepCopy();
        contractFields.remove("findings");
        ObjectNode contractFieldsWithout = (ObjectNode) written(without, 42L).deepCopy();
        contractFieldsWithout.remove("findings");
        assertThat(contractFields).isEqualTo(contractFieldsWithout);
        assertThat(EffectiveResult.withAuditId(EffectiveResult.toJson(verification, null), 42L))
                .isEqualTo(EffectiveResult.toJson(verification, 42L));
    }

    @Test
    @DisplayName("Scenario: An input without findings has an empty findings list")
    void noFindingsMakeAnEmptyList() {
        JsonNode result = written(Verifications.withFindings(Envelopes.clean().verify(), List.of()), 1L);

        assertThat(result.has("findings")).isTrue();
        assertThat(result.path("findings")).isEqualTo(json("[]"));
    }

    @Test
    @DisplayName("Scenario: Fields the contract does not name stay out of the effective result")
    void fieldsTheContractDoesNotNameStayOutOfTheEffectiveResult() {
        String text = written(Envelopes.clean()
                .set("producer", "{'name': 'superbiz-agent'}")
                .output("model", "'verifier-v2-2026-11'")).toString();

        assertThat(text).doesNotContain("producer", "superbiz-agent", "\"model\"", "verifier-v2-2026-11");
    }

    @Test
    @DisplayName("Scenario: audit_id and request_id identify the verification")
    void auditIdAndRequestIdIdentifyTheVerification() {
        JsonNode result = written(Envelopes.clean().set("request_id", "'req-checkout-7'").verify(), 42L);

        assertThat(result.path("audit_id").isIntegralNumber()).isTrue();
        assertThat(result.path("audit_id").longValue()).isEqualTo(42L);
        assertThat(result.path("request_id").stringValue()).isEqualTo("req-checkout-7");
    }

    @Test
    @DisplayName("Scenario: The audit id filled in later gives the same text as writing the result with it")
    void auditIdFilledInLaterGivesTheSameText() throws Exception {
        EnvelopeReader reader = new EnvelopeReader(Limits.DEFAULTS);
        List<ExampleEnvelopes.Example> examples = ExampleEnvelopes.load(Path.of("examples"));
        assertThat(examples).isNotEmpty();
        for (ExampleEnvelopes.Example example : examples) {
            Verification verification = Verification.of(reader.read(example.json().getBytes(StandardCharsets.UTF_8)));

            assertThat(EffectiveResult.withAuditId(EffectiveResult.toJson(verification, null), 42L)).as(example.name())
                    .isEqualTo(EffectiveResult.toJson(verification, 42L));
        }
        assertThatThrownBy(() -> EffectiveResult.withAuditId("{\"request_id\":\"r\"}", 1L))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("Scenario: audit_id is null before the audit row exists")
    void auditIdIsNullBeforeTheAuditRowExists() {
        JsonNode result = written(Envelopes.clean().verify(), null);

        assertThat(result.has("audit_id")).isTrue();
        assertThat(result.path("audit_id").isNull()).isTrue();
    }

    @Test
    @DisplayName("Scenario: verdict holds the guarded verdict")
    void verdictHoldsTheGuardedVerdict() {
        JsonNode result = written(Envelopes.clean().input("gatekeeper_result", INVOCATION_REF_FAILED));

        assertThat(result.path("verdict").stringValue()).isEqualTo("REJECT");
        assertThat(result.path("model_verdict").stringValue()).isEqualTo("PASS");
    }

    @Test
    @DisplayName("Scenario: Model verdict is written in upper case")
    void modelVerdictIsWrittenInUpperCase() {
        JsonNode result = written(Envelopes.clean().output("verdict", "'low_confid'"));

        assertThat(result.path("model_verdict").stringValue()).isEqualTo("LOW_CONFID");
        assertThat(result.path("verdict").stringValue()).isEqualTo("LOW_CONFID");
    }

    @Test
    @DisplayName("Scenario: Invalid model verdict is written as null")
    void invalidModelVerdictIsWrittenAsNull() {
        JsonNode result = written(Envelopes.clean().output("verdict", "'APPROVED'"));

        assertThat(result.has("model_verdict")).isTrue();
        assertThat(result.path("model_verdict").isNull()).isTrue();
        assertThat(result.path("verdict").stringValue()).isEqualTo("LOW_CONFID");
    }

    @Test
    @DisplayName("Scenario: Guard reasons carry code, cap and detail")
    void guardReasonsCarryCodeCapAndDetail() {
        JsonNode result = written(Envelopes.clean()
                .input("gatekeeper_result", "{'status': 'fail', 'failures': [{'check': 'evidence.trace_ref'}]}"));

        JsonNode guard = result.path("verdict_guard");
        assertThat(guard.propertyNames()).containsExactly("downgraded", "reasons");
        assertThat(guard.path("downgraded").booleanValue()).isTrue();
        assertThat(guard.path("reasons").size()).isEqualTo(1);
        JsonNode reason = guard.path("reasons").get(0);
        assertThat(reason.propertyNames()).containsExactly("code", "cap", "detail");
        assertThat(reason.path("code").stringValue()).isEqualTo("gatekeeper.fail");
        assertThat(reason.path("cap").stringValue()).isEqualTo("LOW_CONFID");
        assertThat(reason.path("detail").stringValue()).contains("evidence.trace_ref");
    }

    @Test
    @DisplayName("Scenario: No reasons when no rule fires")
    void noReasonsWhenNoRuleFires() {
        JsonNode result = written(Envelopes.clean());

        assertThat(result.path("verdict_guard")).isEqualTo(json("{'downgraded': false, 'reasons': []}"));
    }

    @Test
    @DisplayName("Scenario: Verifier values are carried as received")
    void verifierValuesAreCarriedAsReceived() {
        String claimChecks = "[" + claimCheck("claim-1", "checkout p95 latency is 2.8 s", "symptom", "direct_observation") + ", "
                + claimCheck("claim-2", "payment-service CPU usage is at 92%", "symptom", "direct_observation") + "]";
        String hypothesisChecks = "[{'hypothesis': 'the card processor is slow', 'status': 'not_checked'}]";
        Envelopes envelope = Envelopes.clean()
                .output("groundedness_score", "0.620")
                .output("critical_fact_count", "2")
                .output("rationale", "'latency and CPU are observed directly'")
                .output("claim_checks", claimChecks)
                .output("hypothesis_checks", hypothesisChecks);

        JsonNode result = written(envelope);

        assertThat(result.path("groundedness_score").toString()).isEqualTo("0.620");
        assertThat(result.path("critical_fact_count").toString()).isEqualTo("2");
        assertThat(result.path("rationale").stringValue()).isEqualTo("latency and CPU are observed directly");
        assertThat(result.path("claim_checks")).isEqualTo(json(claimChecks));
        assertThat(result.path("hypothesis_checks")).isEqualTo(json(hypothesisChecks));
        assertThat(result.path("projection_mode").stringValue()).isEqualTo("claim_checks");
    }

    @Test
    @DisplayName("Scenario: Absent claim_checks and hypothesis_checks are written as empty lists")
    void absentClaimChecksAndHypothesisChecksAreWrittenAsEmptyLists() {
        JsonNode result = written(Envelopes.clean()
                .output("facts_checked", "[{'fact': 'CPU is high'}]")
                .output("hypothesis_checks", "null"));

        assertThat(result.path("claim_checks")).isEqualTo(json("[]"));
        assertThat(result.path("hypothesis_checks")).isEqualTo(json("[]"));
    }

    @Test
    @DisplayName("Scenario: claim_checks that is not a list is carried as received")
    void claimChecksThatIsNotAListIsCarriedAsReceived() {
        JsonNode result = written(Envelopes.clean().output("claim_checks", "{'claim-1': 'direct_observation'}"));

        assertThat(result.path("claim_checks")).isEqualTo(json("{'claim-1': 'direct_observation'}"));
        assertThat(result.path("projection_mode").stringValue()).isEqualTo("none");
    }

    @Test
    @DisplayName("Scenario: Absent scores and rationale are written as null")
    void absentScoresAndRationaleAreWrittenAsNull() {
        JsonNode result = written(Envelopes.clean()
                .withoutOutput("groundedness_score")
                .withoutOutput("critical_fact_count")
                .withoutOutput("rationale"));

        for (String field : new String[] {"groundedness_score", "critical_fact_count", "rationale"}) {
            assertThat(result.has(field)).as(field).isTrue();
            assertThat(result.path(field).isNull()).as(field).isTrue();
        }
    }

    @Test
    @DisplayName("Scenario: facts_checked is the effective list")
    void factsCheckedIsTheEffectiveList() {
        JsonNode result = written(Envelopes.clean()
                .claimChecks(claimCheck("claim-1", "payment-service CPU usage is at 92%", "symptom", "direct_observation"))
                .output("facts_checked", "[{'fact': 'the verifier wrote this itself'}]"));

        assertThat(result.path("facts_checked")).isEqualTo(json("""
                [{'fact': 'claim-1: payment-service CPU usage is at 92%', 'is_critical': true,
                  'verification': 'direct_evidence', 'detail': null, 'evidence_refs': []}]"""));
        assertThat(result.path("projection_mode").stringValue()).isEqualTo("claim_checks_replaced");
    }

    @Test
    @DisplayName("Scenario: Legacy facts_checked is forwarded unchanged")
    void legacyFactsCheckedIsForwardedUnchanged() {
        String verifierFacts = """
                [{'fact': 'payment-service CPU is at 92%', 'is_critical': true, 'verification': 'direct_evidence',
                  'detail': 'query_metrics shows CPU=92%', 'evidence_refs': [{'trace_ref': 'trace-2'}]}]""";

        JsonNode result = written(Envelopes.clean().output("facts_checked", verifierFacts));

        assertThat(result.path("facts_checked")).isEqualTo(json(verifierFacts));
        assertThat(result.path("projection_mode").stringValue()).isEqualTo("legacy");
    }

    private static JsonNode written(Envelopes envelope) {
        return written(envelope.verify(), 1L);
    }

    private static JsonNode written(Verification verification, Long auditId) {
        return EXACT_NUMBERS.readTree(EffectiveResult.toJson(verification, auditId));
    }
}
