package io.claimguard.domain;

import static io.claimguard.testkit.Envelopes.claimCheck;
import static io.claimguard.testkit.Envelopes.claimCheckVerifiedAs;
import static io.claimguard.testkit.Envelopes.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.Envelopes;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Proves openspec/specs/legacy-projection/spec.md. */
class LegacyProjectionTest {

    @Test
    @DisplayName("Scenario: direct_observation projects to direct_evidence")
    void directObservationProjectsToDirectEvidence() {
        assertProjectsToKnownLabel("direct_observation", "direct_evidence", ClaimVerification.DIRECT_OBSERVATION);
    }

    @Test
    @DisplayName("Scenario: reasonable_inference projects to indirect_support")
    void reasonableInferenceProjectsToIndirectSupport() {
        assertProjectsToKnownLabel("reasonable_inference", "indirect_support", ClaimVerification.REASONABLE_INFERENCE);
    }

    @Test
    @DisplayName("Scenario: overstated projects to indirect_support")
    void overstatedProjectsToIndirectSupport() {
        assertProjectsToKnownLabel("overstated", "indirect_support", ClaimVerification.OVERSTATED);
    }

    @Test
    @DisplayName("Scenario: unsupported projects to no_evidence")
    void unsupportedProjectsToNoEvidence() {
        assertProjectsToKnownLabel("unsupported", "no_evidence", ClaimVerification.UNSUPPORTED);
    }

    @Test
    @DisplayName("Scenario: external_unknown projects to no_evidence")
    void externalUnknownProjectsToNoEvidence() {
        assertProjectsToKnownLabel("external_unknown", "no_evidence", ClaimVerification.EXTERNAL_UNKNOWN);
    }

    @Test
    @DisplayName("Scenario: contradicted projects to contradicted")
    void contradictedProjectsToContradicted() {
        assertProjectsToKnownLabel("contradicted", "contradicted", ClaimVerification.CONTRADICTED);
    }

    @Test
    @DisplayName("Scenario: Unknown label projects to no_evidence")
    void unknownLabelProjectsToNoEvidence() {
        assertProjectsToUnknownLabel(claimCheckVerifiedAs("partially_supported"), "partially_supported");
    }

    @Test
    @DisplayName("Scenario: Absent verification projects to no_evidence")
    void absentVerificationProjectsToNoEvidence() {
        assertProjectsToUnknownLabel("{'claim_id': 'claim-1', 'claim_text': 'checkout is slow', 'claim_type': 'symptom'}", null);
    }

    @Test
    @DisplayName("Scenario: Label in another case is unknown")
    void labelInAnotherCaseIsUnknown() {
        assertProjectsToUnknownLabel(claimCheckVerifiedAs("DIRECT_OBSERVATION"), "DIRECT_OBSERVATION");
    }

    @Test
    @DisplayName("Scenario: Non-string verification is unknown")
    void nonStringVerificationIsUnknown() {
        assertProjectsToUnknownLabel("{'claim_id': 'claim-1', 'claim_text': 'checkout is slow', 'verification': 1}", "1");
    }

    @Test
    @DisplayName("Scenario: Fact text joins claim_id and claim_text")
    void factTextJoinsClaimIdAndClaimText() {
        Projection projection = projectClaims(claimCheck("claim-1", "payment-service CPU usage is high", "symptom", "direct_observation"));

        assertThat(fact(projection, 0).path("fact").stringValue()).isEqualTo("claim-1: payment-service CPU usage is high");
    }

    @Test
    @DisplayName("Scenario: Critical claim types mark the fact critical")
    void criticalClaimTypesMarkTheFactCritical() {
        Projection projection = projectClaims(
                claimCheck("claim-1", "the 14:02 deploy caused the CPU saturation", "root_cause", "reasonable_inference"),
                claimCheck("claim-2", "payment-service CPU usage is high", "symptom", "direct_observation"),
                claimCheck("claim-3", "6% of checkouts time out", "impact", "direct_observation"),
                claimCheck("claim-4", "the database may run out of connections", "risk", "unsupported"));

        assertThat(criticalFlags(projection)).containsExactly(true, true, true, true);
        assertThat(projection.claims()).allMatch(ProjectedClaim::critical);
    }

    @Test
    @DisplayName("Scenario: Other claim types are not critical")
    void otherClaimTypesAreNotCritical() {
        Projection projection = projectClaims(
                claimCheck("claim-1", "checkout-api runs 6 pods", "observation", "direct_observation"),
                claimCheck("claim-2", "the deploy caused it", "ROOT_CAUSE", "reasonable_inference"),
                "{'claim_id': 'claim-3', 'claim_text': 'the deploy caused it', 'claim_type': ['root_cause'], 'verification': 'overstated'}",
                "{'claim_id': 'claim-4', 'claim_text': 'CPU is high', 'verification': 'direct_observation'}");

        assertThat(criticalFlags(projection)).containsExactly(false, false, false, false);
    }

    @Test
    @DisplayName("Scenario: Detail and evidence_refs are copied as received")
    void detailAndEvidenceRefsAreCopiedAsReceived() {
        String check = """
                {'claim_id': 'claim-1', 'claim_text': 'payment-service CPU usage is high', 'claim_type': 'symptom',
                 'verification': 'direct_observation', 'detail': 'query_metrics shows CPU=92%',
                 'evidence_refs': [{'trace_ref': 'trace-1', 'tool_name': 'query_metrics', 'source_invocation_ids': [394],
                                    'note': 'metrics summary contains CPU=92%'}]}""";

        JsonNode fact = fact(projectClaims(check), 0);

        assertThat(fact.path("detail").stringValue()).isEqualTo("query_metrics shows CPU=92%");
        assertThat(fact.path("evidence_refs")).isEqualTo(json(check).path("evidence_refs"));
    }

    @Test
    @DisplayName("Scenario: Absent evidence_refs become an empty list")
    void absentEvidenceRefsBecomeAnEmptyList() {
        Projection projection = projectClaims(
                claimCheckVerifiedAs("direct_observation"),
                "{'claim_id': 'claim-2', 'claim_text': 'CPU is high', 'verification': 'direct_observation', 'evidence_refs': null}");

        assertThat(fact(projection, 0).path("evidence_refs")).isEqualTo(json("[]"));
        assertThat(fact(projection, 1).path("evidence_refs")).isEqualTo(json("[]"));
    }

    @Test
    @DisplayName("Scenario: Absent detail becomes null")
    void absentDetailBecomesNull() {
        JsonNode fact = fact(projectClaims(claimCheckVerifiedAs("direct_observation")), 0);

        assertThat(fact.has("detail")).isTrue();
        assertThat(fact.path("detail").isNull()).isTrue();
    }

    @Test
    @DisplayName("Scenario: Absent claim_id or claim_text reads as empty text")
    void absentClaimIdOrClaimTextReadsAsEmptyText() {
        Projection projection = projectClaims(
                "{'claim_text': 'checkout is slow', 'verification': 'direct_observation'}",
                "{'claim_id': 'claim-2', 'claim_text': null, 'verification': 'direct_observation'}");

        assertThat(factTexts(projection)).containsExactly(": checkout is slow", "claim-2: ");
    }

    @Test
    @DisplayName("Scenario: Non-string claim fields are written as their JSON text")
    void nonStringClaimFieldsAreWrittenAsTheirJsonText() {
        Projection projection = projectClaims("{'claim_id': 7, 'claim_text': {'cpu': 92}, 'verification': 'direct_observation'}");

        assertThat(factTexts(projection)).containsExactly("7: {\"cpu\":92}");
    }

    @Test
    @DisplayName("Scenario: Non-object claim check reads as a claim check with every field absent")
    void nonObjectClaimCheckReadsAsAClaimCheckWithEveryFieldAbsent() {
        Projection projection = projectClaims("'claim-1'");

        assertThat(projection.factsChecked()).isEqualTo(json("""
                [{'fact': ': ', 'is_critical': false, 'verification': 'no_evidence', 'detail': null, 'evidence_refs': []}]"""));
        assertThat(projection.claimsWithUnknownVerification()).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: Facts follow claim check order")
    void factsFollowClaimCheckOrder() {
        Projection projection = projectClaims(
                claimCheck("claim-3", "the deploy caused it", "root_cause", "reasonable_inference"),
                claimCheck("claim-1", "latency rose to 2.8 s", "symptom", "direct_observation"),
                claimCheck("claim-2", "CPU is at 92%", "symptom", "direct_observation"));

        assertThat(factTexts(projection))
                .containsExactly("claim-3: the deploy caused it", "claim-1: latency rose to 2.8 s", "claim-2: CPU is at 92%");
        assertThat(projection.claims()).extracting(ProjectedClaim::ordinal).containsExactly(0, 1, 2);
        assertThat(projection.claims()).extracting(ProjectedClaim::claimId).containsExactly("claim-3", "claim-1", "claim-2");
    }

    @Test
    @DisplayName("Scenario: Only claim_checks emitted")
    void onlyClaimChecksEmitted() {
        Projection projection = projectClaims(
                claimCheck("claim-1", "latency rose to 2.8 s", "symptom", "direct_observation"),
                claimCheck("claim-2", "the deploy caused it", "root_cause", "reasonable_inference"));

        assertThat(projection.mode()).isEqualTo(ProjectionMode.CLAIM_CHECKS);
        assertThat(projection.factsChecked()).isEqualTo(json("""
                [{'fact': 'claim-1: latency rose to 2.8 s', 'is_critical': true, 'verification': 'direct_evidence',
                  'detail': null, 'evidence_refs': []},
                 {'fact': 'claim-2: the deploy caused it', 'is_critical': true, 'verification': 'indirect_support',
                  'detail': null, 'evidence_refs': []}]"""));
    }

    @Test
    @DisplayName("Scenario: Both claim_checks and facts_checked emitted")
    void bothClaimChecksAndFactsCheckedEmitted() {
        Projection projection = project(Envelopes.clean()
                .claimChecks(claimCheck("claim-1", "CPU is at 92%", "symptom", "direct_observation"))
                .output("facts_checked", "[{'fact': 'CPU is high', 'is_critical': true, 'verification': 'direct_evidence'}]"));

        assertThat(projection.mode()).isEqualTo(ProjectionMode.CLAIM_CHECKS_REPLACED);
        assertThat(factTexts(projection)).containsExactly("claim-1: CPU is at 92%");
    }

    @Test
    @DisplayName("Scenario: Only facts_checked emitted")
    void onlyFactsCheckedEmitted() {
        String verifierFacts = """
                [{'fact': 'payment-service CPU is at 92%', 'is_critical': true, 'verification': 'direct_evidence',
                  'detail': 'query_metrics', 'evidence_refs': ['trace-2']}]""";

        Projection projection = project(Envelopes.clean().output("facts_checked", verifierFacts));

        assertThat(projection.mode()).isEqualTo(ProjectionMode.LEGACY);
        assertThat(projection.factsChecked()).isEqualTo(json(verifierFacts));
        assertThat(projection.claims()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Neither claim_checks nor facts_checked emitted")
    void neitherClaimChecksNorFactsCheckedEmitted() {
        Projection projection = project(Envelopes.clean());

        assertThat(projection.mode()).isEqualTo(ProjectionMode.NONE);
        assertThat(projection.factsChecked()).isEqualTo(json("[]"));
    }

    @Test
    @DisplayName("Scenario: Empty claim_checks still counts as emitted")
    void emptyClaimChecksStillCountsAsEmitted() {
        Projection projection = projectClaims();

        assertThat(projection.mode()).isEqualTo(ProjectionMode.CLAIM_CHECKS);
        assertThat(projection.factsChecked()).isEqualTo(json("[]"));
    }

    @Test
    @DisplayName("Scenario: Null claim_checks counts as not emitted")
    void nullClaimChecksCountsAsNotEmitted() {
        Projection projection = project(Envelopes.clean()
                .output("claim_checks", "null")
                .output("facts_checked", "[{'fact': 'CPU is high'}]"));

        assertThat(projection.mode()).isEqualTo(ProjectionMode.LEGACY);
    }

    @Test
    @DisplayName("Scenario: Null facts_checked counts as not emitted")
    void nullFactsCheckedCountsAsNotEmitted() {
        Projection projection = project(Envelopes.clean()
                .claimChecks(claimCheckVerifiedAs("direct_observation"))
                .output("facts_checked", "null"));

        assertThat(projection.mode()).isEqualTo(ProjectionMode.CLAIM_CHECKS);
    }

    @Test
    @DisplayName("Scenario: claim_checks that is not an array counts as not emitted")
    void claimChecksThatIsNotAnArrayCountsAsNotEmitted() {
        Envelopes objectClaimChecks = Envelopes.clean().output("claim_checks", "{'claim-1': 'direct_observation'}");

        Projection withoutFacts = project(objectClaimChecks);
        Projection withFacts = project(objectClaimChecks.output("facts_checked", "[{'fact': 'CPU is high'}]"));

        assertThat(withoutFacts.mode()).isEqualTo(ProjectionMode.NONE);
        assertThat(withFacts.mode()).isEqualTo(ProjectionMode.LEGACY);
        assertThat(withoutFacts.claims()).isEmpty();
        assertThat(withFacts.claims()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: facts_checked that is not an array is passed on unchanged")
    void factsCheckedThatIsNotAnArrayIsPassedOnUnchanged() {
        Projection projection = project(Envelopes.clean().output("facts_checked", "'none found'"));

        assertThat(projection.mode()).isEqualTo(ProjectionMode.LEGACY);
        assertThat(projection.factsChecked().stringValue()).isEqualTo("none found");
    }

    @Test
    @DisplayName("Scenario: Projecting leaves the verifier output unchanged")
    void projectingLeavesTheVerifierOutputUnchanged() {
        ObjectNode verifierOutput = Envelopes.clean()
                .claimChecks("{'claim_id': 'claim-1', 'claim_text': 'CPU is high', 'verification': 'direct_observation',"
                        + " 'evidence_refs': [{'trace_ref': 'trace-2'}]}", "'claim-2'")
                .output("facts_checked", "[{'fact': 'CPU is high'}]")
                .read()
                .verifierOutput();
        JsonNode before = verifierOutput.deepCopy();

        LegacyProjection.project(verifierOutput);

        assertThat(verifierOutput).isEqualTo(before);
    }

    private static void assertProjectsToKnownLabel(String label, String legacyLabel, ClaimVerification known) {
        Projection projection = projectClaims(claimCheckVerifiedAs(label));

        assertThat(fact(projection, 0).path("verification").stringValue()).isEqualTo(legacyLabel);
        assertThat(projection.claims().get(0).knownVerification()).contains(known);
        assertThat(projection.claimsWithUnknownVerification()).isEmpty();
    }

    private static void assertProjectsToUnknownLabel(String check, String verificationAsReceived) {
        Projection projection = projectClaims(check);

        assertThat(fact(projection, 0).path("verification").stringValue()).isEqualTo("no_evidence");
        assertThat(projection.claims().get(0).legacyVerification()).isEqualTo(LegacyVerification.NO_EVIDENCE);
        assertThat(projection.claimsWithUnknownVerification()).singleElement()
                .satisfies(claim -> assertThat(claim.verification()).isEqualTo(verificationAsReceived));
    }

    private static Projection projectClaims(String... checks) {
        return project(Envelopes.clean().claimChecks(checks));
    }

    private static Projection project(Envelopes envelope) {
        return envelope.projection();
    }

    private static JsonNode fact(Projection projection, int index) {
        return projection.factsChecked().get(index);
    }

    private static List<String> factTexts(Projection projection) {
        return projection.factsChecked().values().stream().map(fact -> fact.path("fact").stringValue()).toList();
    }

    private static List<Boolean> criticalFlags(Projection projection) {
        return projection.factsChecked().values().stream().map(fact -> fact.path("is_critical").booleanValue()).toList();
    }
}
