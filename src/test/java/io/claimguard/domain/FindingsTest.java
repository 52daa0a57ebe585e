package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.claimguard.testkit.Envelopes;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Proves openspec/specs/evidence-findings/spec.md, but for its property scenarios and the examples. */
class FindingsTest {

    private static final String TRACES = """
            [{'trace_ref': 'trace-1', 'tool_name': 'query_metrics', 'invocation_ids': [394]},
             {'trace_ref': 'trace-2', 'tool_name': 'query_metrics', 'invocation_ids': [395]},
             {'trace_ref': 'trace-3', 'tool_name': 'list_deployments', 'invocation_ids': [396]}]""";
    private static final String CLAIM_TEXT = "the customer ACME-42 pays 9000 EUR a month";

    /** Gatekeeper pass, parse ok, PASS, the three traces; no score and no count, so that only what a test adds fires. */
    private static Envelopes base() {
        return Envelopes.clean()
                .withoutOutput("groundedness_score")
                .withoutOutput("critical_fact_count")
                .input("tool_trace_summary", TRACES);
    }

    private static String check(String claimId, String claimType, String verification, String evidenceRefs) {
        return "{'claim_id': '" + claimId + "', 'claim_text': '" + CLAIM_TEXT + "', 'claim_type': '" + claimType
                + "', 'verification': '" + verification + "'" + (evidenceRefs == null ? "" : ", 'evidence_refs': " + evidenceRefs) + "}";
    }

    private static String observed(String claimId, String evidenceRefs) {
        return check(claimId, "symptom", "direct_observation", evidenceRefs);
    }

    private static List<Finding> findings(Envelopes envelope) {
        return envelope.verify().findings();
    }

    // ---- evidence ----

    @Test
    @DisplayName("Scenario: Evidence reference that is not an object is malformed")
    void evidenceReferenceThatIsNotAnObjectIsMalformed() {
        List<Finding> findings = findings(base().claimChecks(
                observed("claim-1", "['trace-1', {'trace_ref': 'trace-1', 'source_invocation_ids': [394]}]")));

        assertThat(findings).containsExactly(new Finding(FindingCode.EVIDENCE_MALFORMED_REF, 0,
                "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0] is a string, not an object"));
    }

    @Test
    @DisplayName("Scenario: Evidence reference without a text trace_ref is malformed")
    void evidenceReferenceWithoutATextTraceRefIsMalformed() {
        List<Finding> findings = findings(base().claimChecks(observed("claim-1",
                "[{'tool_name': 'query_metrics'}, {'trace_ref': null}, {'trace_ref': 1, 'source_invocation_ids': [1]}]")));

        assertThat(findings).extracting(Finding::code, Finding::claimOrdinal, Finding::detail).containsExactly(
                tuple(FindingCode.EVIDENCE_MALFORMED_REF, 0, "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0] has no trace_ref"),
                tuple(FindingCode.EVIDENCE_MALFORMED_REF, 0, "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[1] has no trace_ref"),
                tuple(FindingCode.EVIDENCE_MALFORMED_REF, 0,
                        "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[2] has a trace_ref that is a number, not text"));
    }

    @Test
    @DisplayName("Scenario: Evidence reference naming no trace is dangling")
    void evidenceReferenceNamingNoTraceIsDangling() {
        List<Finding> findings = findings(base().claimChecks(
                observed("claim-1", "[{'trace_ref': 'trace-1', 'tool_name': 'query_metrics', 'source_invocation_ids': [394]}]"),
                observed("claim-2", "[{'trace_ref': 'trace-4', 'tool_name': 'query_metrics', 'source_invocation_ids': [401]}]")));

        assertThat(findings).containsExactly(new Finding(FindingCode.EVIDENCE_DANGLING_TRACE_REF, 1,
                "claim_checks[1] (claim_id \"claim-2\"): evidence_refs[0] names trace_ref \"trace-4\","
                        + " which no trace of verifier_input.tool_trace_summary has"));
    }

    @Test
    @DisplayName("Scenario: Every reference dangles when tool_trace_summary is absent")
    void everyReferenceDanglesWhenToolTraceSummaryIsAbsent() {
        List<Finding> findings = findings(base().withoutInput("tool_trace_summary").claimChecks(
                observed("claim-1", "[{'trace_ref': 'trace-1', 'source_invocation_ids': [394]}]"),
                observed("claim-2", "[{'trace_ref': 'trace-2', 'source_invocation_ids': [395]}]")));
        List<Finding> notAList = findings(base().input("tool_trace_summary", "{'trace-1': [394]}").claimChecks(
                observed("claim-1", "[{'trace_ref': 'trace-1'}]")));

        assertThat(findings).extracting(Finding::code, Finding::claimOrdinal, Finding::detail).containsExactly(
                tuple(FindingCode.EVIDENCE_DANGLING_TRACE_REF, 0, "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0]"
                        + " names trace_ref \"trace-1\", but verifier_input.tool_trace_summary is absent"),
                tuple(FindingCode.EVIDENCE_DANGLING_TRACE_REF, 1, "claim_checks[1] (claim_id \"claim-2\"): evidence_refs[0]"
                        + " names trace_ref \"trace-2\", but verifier_input.tool_trace_summary is absent"));
        assertThat(notAList).extracting(Finding::detail).containsExactly("claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0]"
                + " names trace_ref \"trace-1\", but verifier_input.tool_trace_summary is an object, not a list");
    }

    @Test
    @DisplayName("Scenario: Tool name that differs from the trace's is a mismatch")
    void toolNameThatDiffersFromTheTracesIsAMismatch() {
        List<Finding> findings = findings(base().claimChecks(check("claim-3", "root_cause", "reasonable_inference",
                "[{'trace_ref': 'trace-3', 'tool_name': 'query_metrics', 'source_invocation_ids': [396]},"
                        + " {'trace_ref': 'trace-2', 'tool_name': null, 'source_invocation_ids': [395]}]")));

        assertThat(findings).containsExactly(new Finding(FindingCode.EVIDENCE_TOOL_MISMATCH, 0,
                "claim_checks[0] (claim_id \"claim-3\"): evidence_refs[0] names tool_name \"query_metrics\","
                        + " but trace \"trace-3\" has tool_name \"list_deployments\""));
    }

    @Test
    @DisplayName("Scenario: Invocation not in the trace is unknown")
    void invocationNotInTheTraceIsUnknown() {
        List<Finding> findings = findings(base().claimChecks(
                observed("claim-2", "[{'trace_ref': 'trace-2', 'tool_name': 'query_metrics', 'source_invocation_ids': [395, 401, 402]}]")));

        assertThat(findings).extracting(Finding::code, Finding::claimOrdinal, Finding::detail).containsExactly(
                tuple(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 0, "claim_checks[0] (claim_id \"claim-2\"): evidence_refs[0] cites"
                        + " invocation 401 (source_invocation_ids[1]), which is not among the invocation_ids of trace \"trace-2\""),
                tuple(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 0, "claim_checks[0] (claim_id \"claim-2\"): evidence_refs[0] cites"
                        + " invocation 402 (source_invocation_ids[2]), which is not among the invocation_ids of trace \"trace-2\""));
    }

    @Test
    @DisplayName("Scenario: Invocation ids compare numbers by value")
    void invocationIdsCompareNumbersByValue() {
        List<Finding> findings = findings(base().claimChecks(
                observed("claim-1", "[{'trace_ref': 'trace-1', 'source_invocation_ids': [394.0, 3.94e2]}]")));
        List<Finding> single = findings(base().claimChecks(
                observed("claim-1", "[{'trace_ref': 'trace-1', 'source_invocation_ids': 394.00}]")));

        assertThat(findings).isEmpty();
        assertThat(single).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Invocation ids that are not numbers compare exactly")
    void invocationIdsThatAreNotNumbersCompareExactly() {
        List<Finding> findings = findings(base()
                .input("tool_trace_summary", "[{'trace_ref': 'trace-1', 'tool_name': 'query_metrics', 'invocation_ids': [394, 'inv-7']}]")
                .claimChecks(observed("claim-1", "[{'trace_ref': 'trace-1', 'source_invocation_ids': ['394', 'inv-7', true]}]")));

        assertThat(findings).extracting(Finding::code, Finding::detail).containsExactly(
                tuple(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0] cites"
                        + " invocation \"394\" (source_invocation_ids[0]), which is not among the invocation_ids of trace \"trace-1\""),
                tuple(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, "claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0] cites"
                        + " invocation true (source_invocation_ids[2]), which is not among the invocation_ids of trace \"trace-1\""));
    }

    @Test
    @DisplayName("Scenario: Direct observation without evidence")
    void directObservationWithoutEvidence() {
        List<Finding> findings = findings(base().claimChecks(
                observed("claim-1", null),
                observed("claim-2", "null"),
                observed("claim-3", "[]"),
                check("claim-4", "root_cause", "reasonable_inference", null)));

        assertThat(findings).extracting(Finding::code, Finding::claimOrdinal, Finding::detail).containsExactly(
                tuple(FindingCode.EVIDENCE_NONE_FOR_DIRECT_OBSERVATION, 0,
                        "claim_checks[0] (claim_id \"claim-1\") is checked as direct_observation but cites no evidence_refs"),
                tuple(FindingCode.EVIDENCE_NONE_FOR_DIRECT_OBSERVATION, 1,
                        "claim_checks[1] (claim_id \"claim-2\") is checked as direct_observation but cites no evidence_refs"),
                tuple(FindingCode.EVIDENCE_NONE_FOR_DIRECT_OBSERVATION, 2,
                        "claim_checks[2] (claim_id \"claim-3\") is checked as direct_observation but cites no evidence_refs"));
    }

    @Test
    @DisplayName("Scenario: Finding details name values, never claim text")
    void findingDetailsNameValuesNeverClaimText() {
        String longId = "9".repeat(200);
        List<Finding> findings = findings(base().claimChecks(
                observed("claim-1", "[{'trace_ref': 'trace-1', 'source_invocation_ids': [" + longId + "]}]")));

        assertThat(findings).singleElement().satisfies(finding -> {
            assertThat(finding.code()).isEqualTo(FindingCode.EVIDENCE_UNKNOWN_INVOCATION);
            assertThat(finding.detail()).isEqualTo("claim_checks[0] (claim_id \"claim-1\"): evidence_refs[0] cites invocation "
                    + "9".repeat(Findings.MAX_VALUE_LENGTH) + "… (source_invocation_ids[0]),"
                    + " which is not among the invocation_ids of trace \"trace-1\"");
            assertThat(finding.detail()).doesNotContain(CLAIM_TEXT, "ACME");
        });
    }

    // ---- consistency ----

    @Test
    @DisplayName("Scenario: Contradicted critical claim under PASS")
    void contradictedCriticalClaimUnderPass() {
        List<Finding> findings = findings(base().output("verdict", "'pass'").claimChecks(
                check("claim-1", "observation", "contradicted", null),
                check("claim-2", "root_cause", "contradicted", null)));

        assertThat(findings).containsExactly(new Finding(FindingCode.CONSISTENCY_CONTRADICTED_CRITICAL_UNDER_PASS, 1,
                "claim_checks[1] (claim_id \"claim-2\"), a root_cause claim, is checked as contradicted while the model verdict is PASS"));
    }

    @Test
    @DisplayName("Scenario: Unsupported critical claim under PASS")
    void unsupportedCriticalClaimUnderPass() {
        List<Finding> findings = findings(base().claimChecks(check("claim-1", "symptom", "unsupported", null)));

        assertThat(findings).containsExactly(new Finding(FindingCode.CONSISTENCY_UNSUPPORTED_CRITICAL_UNDER_PASS, 0,
                "claim_checks[0] (claim_id \"claim-1\"), a symptom claim, is checked as unsupported while the model verdict is PASS"));
    }

    @Test
    @DisplayName("Scenario: Critical claims under another verdict are no finding")
    void criticalClaimsUnderAnotherVerdictAreNoFinding() {
        String contradicted = check("claim-1", "root_cause", "contradicted", null);

        assertThat(findings(base().output("verdict", "'LOW_CONFID'").claimChecks(contradicted))).isEmpty();
        assertThat(findings(base().output("verdict", "'LOW_CONFIDENCE'").claimChecks(contradicted))).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Critical fact count differs from the critical claim checks")
    void criticalFactCountDiffersFromTheCriticalClaimChecks() {
        String[] checks = {
            check("claim-1", "symptom", "reasonable_inference", null),
            check("claim-2", "observation", "reasonable_inference", null),
            check("claim-3", "root_cause", "reasonable_inference", null)};

        for (String count : List.of("3", "3.0")) {
            assertThat(findings(base().output("critical_fact_count", count).claimChecks(checks))).as(count)
                    .containsExactly(new Finding(FindingCode.CONSISTENCY_CRITICAL_FACT_COUNT_MISMATCH, null, "critical_fact_count is "
                            + count + ", but 2 of 3 claim checks are of a critical claim_type (impact, risk, root_cause, symptom)"));
        }
        for (String count : List.of("2", "2.0", "2.5", "'3'", "null")) {
            assertThat(findings(base().output("critical_fact_count", count).claimChecks(checks))).as(count).isEmpty();
        }
    }

    @Test
    @DisplayName("Scenario: Critical fact count of legacy output is not checked")
    void criticalFactCountOfLegacyOutputIsNotChecked() {
        List<Finding> findings = findings(base()
                .output("critical_fact_count", "3")
                .output("facts_checked", "[{'fact': 'CPU at 92%', 'is_critical': true, 'verification': 'direct_evidence'}]"));

        assertThat(findings).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Groundedness score out of range")
    void groundednessScoreOutOfRange() {
        assertThat(findings(base().output("groundedness_score", "1.01"))).containsExactly(new Finding(
                FindingCode.CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE, null, "groundedness_score 1.01 is not from 0 to 1"));
        assertThat(findings(base().output("groundedness_score", "-0.1"))).containsExactly(new Finding(
                FindingCode.CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE, null, "groundedness_score -0.1 is not from 0 to 1"));
        assertThat(findings(base().output("groundedness_score", "'0.9'"))).containsExactly(new Finding(
                FindingCode.CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE, null, "groundedness_score is a string, not a number from 0 to 1"));
        assertThat(findings(base().output("groundedness_score", "true"))).containsExactly(new Finding(
                FindingCode.CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE, null, "groundedness_score is a boolean, not a number from 0 to 1"));
        for (String score : List.of("0", "1", "1.0", "null")) {
            assertThat(findings(base().output("groundedness_score", score))).as(score).isEmpty();
        }
        assertThat(findings(base())).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Groundedness score at odds with the labels")
    void groundednessScoreAtOddsWithTheLabels() {
        String[] oneOfFourSupported = {
            check("claim-1", "observation", "direct_observation", "[{'trace_ref': 'trace-1'}]"),
            check("claim-2", "observation", "unsupported", null),
            check("claim-3", "observation", "unsupported", null),
            check("claim-4", "observation", "unsupported", null)};

        for (String score : List.of("0.76", "1")) {
            assertThat(findings(base().output("groundedness_score", score).claimChecks(oneOfFourSupported))).as(score)
                    .containsExactly(new Finding(FindingCode.CONSISTENCY_GROUNDEDNESS_AT_ODDS, null, "groundedness_score " + score
                            + " is more than 0.5 away from the share of claim checks labelled direct_observation or"
                            + " reasonable_inference: 1 of 4 (0.25)"));
        }
        for (String score : List.of("0.75", "0", "0.5")) {
            assertThat(findings(base().output("groundedness_score", score).claimChecks(oneOfFourSupported))).as(score).isEmpty();
        }
        assertThat(findings(base().output("groundedness_score", "1").claimChecks())).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Executor claim without claim check")
    void executorClaimWithoutClaimCheck() {
        List<Finding> findings = findings(base()
                .input("executor_structured_output", "{'claims': [{'claim_id': 'claim-1'}, {'claim_id': 'claim-2'}, {'claim_id': 'claim-3'}]}")
                .claimChecks(check("claim-1", "observation", "reasonable_inference", null),
                        check("claim-3", "observation", "reasonable_inference", null)));

        assertThat(findings).containsExactly(new Finding(FindingCode.CONSISTENCY_CLAIM_NOT_CHECKED, null,
                "verifier_input.executor_structured_output.claims[1] (claim_id \"claim-2\") has no claim check with that claim_id"));
    }

    @Test
    @DisplayName("Scenario: Claim check without executor claim")
    void claimCheckWithoutExecutorClaim() {
        List<Finding> findings = findings(base()
                .input("executor_structured_output", "{'claims': [{'claim_id': 'claim-1'}]}")
                .claimChecks(check("claim-1", "observation", "reasonable_inference", null),
                        check("claim-9", "observation", "reasonable_inference", null)));

        assertThat(findings).containsExactly(new Finding(FindingCode.CONSISTENCY_CHECK_WITHOUT_CLAIM, 1,
                "claim_checks[1] (claim_id \"claim-9\") checks a claim_id that is not among the claims of"
                        + " verifier_input.executor_structured_output.claims"));
    }

    @Test
    @DisplayName("Scenario: Claims without claim_id take no part in matching")
    void claimsWithoutClaimIdTakeNoPartInMatching() {
        String claims = "{'claims': [{'claim_text': 'no id'}, {'claim_id': 7}, 'not an object']}";
        List<Finding> findings = findings(base().input("executor_structured_output", claims).claimChecks(
                "{'claim_text': 'no id', 'claim_type': 'observation', 'verification': 'reasonable_inference'}",
                "{'claim_id': '7', 'claim_type': 'observation', 'verification': 'reasonable_inference'}"));
        List<Finding> claimChecksNotAList = findings(base().input("executor_structured_output", claims).output("claim_checks", "{}"));
        List<Finding> claimsNotAList = findings(base().input("executor_structured_output", "{'claims': 'claim-1'}")
                .claimChecks(check("claim-1", "observation", "reasonable_inference", null)));

        assertThat(findings).isEmpty();
        assertThat(claimChecksNotAList).isEmpty();
        assertThat(claimsNotAList).isEmpty();
    }
}
