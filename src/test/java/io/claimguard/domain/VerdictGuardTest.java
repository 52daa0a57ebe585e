package io.claimguard.domain;

import static io.claimguard.testkit.Envelopes.claimCheck;
import static io.claimguard.testkit.Envelopes.claimCheckVerifiedAs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.claimguard.testkit.Envelopes;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Proves openspec/specs/verdict-guard/spec.md. */
class VerdictGuardTest {

    private static final String INVOCATION_REF_FAILED = """
            {'status': 'fail', 'failures': [{'check': 'evidence.invocation_ref',
             'detail': 'claim-2 cites invocation 395, which is not in the trace'}]}""";
    private static final String TRACE_REF_FAILED = """
            {'status': 'fail', 'failures': [{'check': 'evidence.trace_ref', 'detail': 'trace-9 is not in tool_trace_summary'}]}""";
    private static final String MALFORMED = "{'status': 'malformed', 'error': 'Unexpected token } at position 212'}";

    @Test
    @DisplayName("Scenario: Clean input keeps the model's verdict")
    void cleanInputKeepsTheModelsVerdict() {
        GuardDecision decision = Envelopes.clean()
                .claimChecks(claimCheckVerifiedAs("direct_observation"), claimCheckVerifiedAs("contradicted"))
                .guard();

        assertThat(decision.reasons()).isEmpty();
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.PASS);
        assertThat(decision.modelVerdict()).contains(Verdict.PASS);
        assertThat(decision.downgraded()).isFalse();
    }

    @Test
    @DisplayName("Scenario: Strictest cap wins")
    void strictestCapWins() {
        GuardDecision decision = Envelopes.clean()
                .input("gatekeeper_result", INVOCATION_REF_FAILED)
                .input("executor_output_parse_status", MALFORMED)
                .guard();

        assertThat(decision.reasons()).extracting(GuardReason::code, GuardReason::cap).containsExactly(
                tuple("gatekeeper.invocation_ref", Verdict.REJECT), tuple("parse_status.not_ok", Verdict.LOW_CONFID));
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
    }

    @Test
    @DisplayName("Scenario: Gatekeeper invocation_ref failure caps at REJECT")
    void gatekeeperInvocationRefFailureCapsAtReject() {
        GuardDecision decision = Envelopes.clean().input("gatekeeper_result", INVOCATION_REF_FAILED).guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.GATEKEEPER_INVOCATION_REF.code());
            assertThat(reason.code()).isEqualTo("gatekeeper.invocation_ref");
            assertThat(reason.cap()).isEqualTo(Verdict.REJECT);
            assertThat(reason.detail()).contains("evidence.invocation_ref", "claim-2 cites invocation 395, which is not in the trace");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
        assertThat(decision.downgraded()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Failure check names compare exactly")
    void failureCheckNamesCompareExactly() {
        GuardDecision decision = Envelopes.clean()
                .input("gatekeeper_result", "{'status': 'fail', 'failures': [{'check': 'Evidence.Invocation_Ref'}]}")
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.fail");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Gatekeeper failure of another check caps at LOW_CONFID")
    void gatekeeperFailureOfAnotherCheckCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean().input("gatekeeper_result", TRACE_REF_FAILED).guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.GATEKEEPER_FAIL.code());
            assertThat(reason.code()).isEqualTo("gatekeeper.fail");
            assertThat(reason.cap()).isEqualTo(Verdict.LOW_CONFID);
            assertThat(reason.detail()).contains("evidence.trace_ref", "trace-9 is not in tool_trace_summary");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Gatekeeper fail without failures caps at LOW_CONFID")
    void gatekeeperFailWithoutFailuresCapsAtLowConfid() {
        GuardDecision emptyFailures = Envelopes.clean().input("gatekeeper_result", "{'status': 'fail', 'failures': []}").guard();
        GuardDecision absentFailures = Envelopes.clean().input("gatekeeper_result", "{'status': 'fail'}").guard();

        for (GuardDecision decision : new GuardDecision[] {emptyFailures, absentFailures}) {
            assertThat(decision.reasons()).singleElement().satisfies(reason -> {
                assertThat(reason.code()).isEqualTo(GuardRule.GATEKEEPER_FAIL.code());
                assertThat(reason.detail()).contains("no failures listed");
            });
            assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
        }
    }

    @Test
    @DisplayName("Scenario: Gatekeeper failures that are not a list count as absent")
    void gatekeeperFailuresThatAreNotAListCountAsAbsent() {
        GuardDecision decision = Envelopes.clean()
                .input("gatekeeper_result", "{'status': 'fail', 'failures': 'evidence.invocation_ref'}")
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.fail");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Invocation_ref and another failure fire both rules")
    void invocationRefAndAnotherFailureFireBothRules() {
        GuardDecision decision = Envelopes.clean()
                .input("gatekeeper_result", """
                        {'status': 'fail', 'failures': [{'check': 'evidence.invocation_ref'}, {'check': 'claims.schema'}]}""")
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.invocation_ref", "gatekeeper.fail");
        assertThat(decision.reasons().get(1).detail()).contains("claims.schema").doesNotContain("evidence.invocation_ref");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
    }

    @Test
    @DisplayName("Scenario: Absent gatekeeper result caps at LOW_CONFID")
    void absentGatekeeperResultCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean().withoutInput("gatekeeper_result").guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.GATEKEEPER_MISSING.code());
            assertThat(reason.code()).isEqualTo("gatekeeper.missing");
            assertThat(reason.cap()).isEqualTo(Verdict.LOW_CONFID);
            assertThat(reason.detail()).isEqualTo("verifier_input.gatekeeper_result is absent");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Gatekeeper status neither pass nor fail caps at LOW_CONFID")
    void gatekeeperStatusNeitherPassNorFailCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean().input("gatekeeper_result", "{'status': 'skipped'}").guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.GATEKEEPER_MISSING.code());
            assertThat(reason.detail()).contains("\"skipped\"", "neither pass nor fail");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Absent verifier input reads as every input absent")
    void absentVerifierInputReadsAsEveryInputAbsent() {
        GuardDecision decision = Envelopes.clean().remove("verifier_input").guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.missing", "parse_status.not_ok");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Gatekeeper status compares ignoring case")
    void gatekeeperStatusComparesIgnoringCase() {
        GuardDecision upperCasePass = Envelopes.clean().input("gatekeeper_result", "{'status': 'PASS'}").guard();
        GuardDecision mixedCaseFail = Envelopes.clean()
                .input("gatekeeper_result", "{'status': 'Fail', 'failures': [{'check': 'evidence.invocation_ref'}]}")
                .guard();

        assertThat(upperCasePass.reasons()).isEmpty();
        assertThat(mixedCaseFail.reasonCodes()).containsExactly("gatekeeper.invocation_ref");
    }

    @Test
    @DisplayName("Scenario: Malformed executor output caps at LOW_CONFID")
    void malformedExecutorOutputCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean().input("executor_output_parse_status", MALFORMED).guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.PARSE_STATUS_NOT_OK.code());
            assertThat(reason.code()).isEqualTo("parse_status.not_ok");
            assertThat(reason.cap()).isEqualTo(Verdict.LOW_CONFID);
            assertThat(reason.detail()).contains("\"malformed\"", "Unexpected token } at position 212");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Missing executor output caps at LOW_CONFID")
    void missingExecutorOutputCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean()
                .input("executor_output_parse_status", "{'status': 'missing', 'error': 'executor returned no JSON block'}")
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("parse_status.not_ok");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Absent parse status caps at LOW_CONFID")
    void absentParseStatusCapsAtLowConfid() {
        GuardDecision absent = Envelopes.clean().withoutInput("executor_output_parse_status").guard();
        GuardDecision withoutStatus = Envelopes.clean()
                .input("executor_output_parse_status", "{'error': 'timeout'}")
                .guard();

        assertThat(absent.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.PARSE_STATUS_NOT_OK.code());
            assertThat(reason.detail()).isEqualTo("verifier_input.executor_output_parse_status is absent");
        });
        assertThat(withoutStatus.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.PARSE_STATUS_NOT_OK.code());
            assertThat(reason.detail()).isEqualTo("verifier_input.executor_output_parse_status.status is absent");
        });
        assertThat(absent.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
        assertThat(withoutStatus.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Parse status ok compares ignoring case")
    void parseStatusOkComparesIgnoringCase() {
        GuardDecision decision = Envelopes.clean().input("executor_output_parse_status", "{'status': 'OK'}").guard();

        assertThat(decision.reasons()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Absent model verdict caps at LOW_CONFID")
    void absentModelVerdictCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean().withoutOutput("verdict").guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.VERDICT_INVALID.code());
            assertThat(reason.code()).isEqualTo("verdict.invalid");
            assertThat(reason.cap()).isEqualTo(Verdict.LOW_CONFID);
            assertThat(reason.detail()).isEqualTo("verifier_output.verdict is absent");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
        assertThat(decision.modelVerdict()).isEmpty();
        assertThat(decision.downgraded()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Unrecognised model verdict caps at LOW_CONFID")
    void unrecognisedModelVerdictCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean().output("verdict", "'LOW_CONFIDENCE'").guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.VERDICT_INVALID.code());
            assertThat(reason.detail()).contains("\"LOW_CONFIDENCE\"");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
        assertThat(decision.downgraded()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Model verdict compares ignoring ASCII case only")
    void modelVerdictComparesIgnoringAsciiCaseOnly() {
        assertThat(modelVerdictOf("'pass'")).contains(Verdict.PASS);
        assertThat(modelVerdictOf("'Low_Confid'")).contains(Verdict.LOW_CONFID);
        assertThat(modelVerdictOf("'reject'")).contains(Verdict.REJECT);

        // U+017F LATIN SMALL LETTER LONG S upper-cases to 'S' in String.equalsIgnoreCase; it must not read as PASS
        assertThat(modelVerdictOf("'pa\u017Fs'")).isEmpty();
        assertThat(modelVerdictOf("' PASS'")).isEmpty();
        assertThat(modelVerdictOf("1")).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Invalid verdict with a REJECT cap is REJECT")
    void invalidVerdictWithARejectCapIsReject() {
        GuardDecision decision = Envelopes.clean()
                .withoutOutput("verdict")
                .input("gatekeeper_result", INVOCATION_REF_FAILED)
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.invocation_ref", "verdict.invalid");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
        assertThat(decision.downgraded()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Unknown claim verification caps at LOW_CONFID")
    void unknownClaimVerificationCapsAtLowConfid() {
        GuardDecision decision = Envelopes.clean()
                .claimChecks(
                        claimCheck("claim-1", "checkout p95 latency is 2.8 s", "symptom", "direct_observation"),
                        claimCheck("claim-2", "payment-service CPU usage is high", "symptom", "DIRECT_OBSERVATION"),
                        claimCheck("claim-3", "the deploy caused it", "root_cause", "reasonable_inference"))
                .guard();

        assertThat(decision.reasons()).singleElement().satisfies(reason -> {
            assertThat(reason.code()).isEqualTo(GuardRule.CLAIM_CHECKS_UNKNOWN_VERIFICATION.code());
            assertThat(reason.code()).isEqualTo("claim_checks.unknown_verification");
            assertThat(reason.cap()).isEqualTo(Verdict.LOW_CONFID);
            assertThat(reason.detail()).contains("claim_checks[1] (claim-2)", "'DIRECT_OBSERVATION'", "direct_observation")
                    .doesNotContain("claim-1", "claim-3");
        });
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Rules that change nothing are still recorded")
    void rulesThatChangeNothingAreStillRecorded() {
        GuardDecision decision = Envelopes.clean()
                .output("verdict", "'REJECT'")
                .withoutInput("gatekeeper_result")
                .input("executor_output_parse_status", MALFORMED)
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.missing", "parse_status.not_ok");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
        assertThat(decision.downgraded()).isFalse();
    }

    @Test
    @DisplayName("Scenario: Reasons are listed in rule order")
    void reasonsAreListedInRuleOrder() {
        GuardDecision decision = Envelopes.clean()
                .claimChecks(claimCheckVerifiedAs("partially_supported"))
                .output("verdict", "'APPROVED'")
                .input("executor_output_parse_status", MALFORMED)
                .input("gatekeeper_result", """
                        {'status': 'fail', 'failures': [{'check': 'claims.schema'}, {'check': 'evidence.invocation_ref'}]}""")
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.invocation_ref", "gatekeeper.fail",
                "parse_status.not_ok", "verdict.invalid", "claim_checks.unknown_verification");
    }

    @Test
    @DisplayName("Scenario: Model REJECT stays REJECT")
    void modelRejectStaysReject() {
        GuardDecision decision = Envelopes.clean().output("verdict", "'REJECT'").guard();

        assertThat(decision.reasons()).isEmpty();
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
        assertThat(decision.downgraded()).isFalse();
    }

    @Test
    @DisplayName("Scenario: LOW_CONFID caps never make REJECT")
    void lowConfidCapsNeverMakeReject() {
        GuardDecision decision = Envelopes.clean()
                .claimChecks(claimCheckVerifiedAs("partially_supported"))
                .withoutOutput("verdict")
                .withoutInput("executor_output_parse_status")
                .input("gatekeeper_result", TRACE_REF_FAILED)
                .guard();

        assertThat(decision.reasonCodes())
                .containsExactly("gatekeeper.fail", "parse_status.not_ok", "verdict.invalid", "claim_checks.unknown_verification");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
    }

    @Test
    @DisplayName("Scenario: Downgraded when the effective verdict is stricter")
    void downgradedWhenTheEffectiveVerdictIsStricter() {
        GuardDecision decision = Envelopes.clean()
                .output("verdict", "'LOW_CONFID'")
                .input("gatekeeper_result", INVOCATION_REF_FAILED)
                .guard();

        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.REJECT);
        assertThat(decision.downgraded()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Not downgraded when a cap equals the model's verdict")
    void notDowngradedWhenACapEqualsTheModelsVerdict() {
        GuardDecision decision = Envelopes.clean()
                .output("verdict", "'LOW_CONFID'")
                .withoutInput("gatekeeper_result")
                .guard();

        assertThat(decision.reasonCodes()).containsExactly("gatekeeper.missing");
        assertThat(decision.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
        assertThat(decision.downgraded()).isFalse();
    }

    private static Optional<Verdict> modelVerdictOf(String verdictJson) {
        return Envelopes.clean().output("verdict", verdictJson).guard().modelVerdict();
    }
}
