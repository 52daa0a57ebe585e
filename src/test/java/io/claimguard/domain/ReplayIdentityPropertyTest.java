package io.claimguard.domain;

import static io.claimguard.domain.SeededCases.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.audit.AuditDocument;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Replay under the policy an audit records is the identity: judged, stored as the audit statement stores it, rebuilt
 * as the replay rebuilds it and judged again under the same policy, every generated envelope gets the same decision.
 */
class ReplayIdentityPropertyTest {

    private static final int TRIES = 1_000;
    private static final long AUDIT_ID = 42;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final EnvelopeReader READER = new EnvelopeReader(Limits.DEFAULTS);

    /** One generated envelope, whether it carries an {@code effective_result} of its own, and a policy. */
    private record ReplayCase(GeneratedEnvelopePropertyTest.GeneratedEnvelope envelope, boolean ownEffectiveResult,
            Policy policy) {
    }

    @Test
    @DisplayName("Scenario: Replay under the recorded policy is the identity")
    void replayUnderTheRecordedPolicyIsTheIdentity() {
        forAll("replay under the recorded policy is the identity", TRIES,
                gen -> new ReplayCase(GeneratedEnvelopePropertyTest.envelope(gen), gen.chance(0.2),
                        gen.chance(0.5) ? Policy.CONTRACT : PolicyTest.anyPolicy(gen)),
                replayCase -> replayCase.envelope().json() + " under " + replayCase.policy(),
                replayCase -> {
                    byte[] input = received(replayCase);
                    Verification judged;
                    try {
                        judged = Verification.of(READER.read(input), replayCase.policy());
                    } catch (EnvelopeRejectedException rejected) {
                        return; // never audited, never replayed
                    }
                    String rebuilt = AuditDocument.envelope(AUDIT_ID, stored(judged));
                    Verification replayed = Verification.of(read(rebuilt), replayCase.policy());

                    assertThat(replayed.guard()).isEqualTo(judged.guard());
                    assertThat(replayed.findings()).isEqualTo(judged.findings());
                });
    }

    private static byte[] received(ReplayCase replayCase) {
        if (!replayCase.ownEffectiveResult()) {
            return replayCase.envelope().bytes();
        }
        ObjectNode envelope = (ObjectNode) JSON.readTree(replayCase.envelope().bytes());
        envelope.putObject("effective_result").put("verdict", "the envelope's own");
        return JSON.writeValueAsBytes(envelope);
    }

    /** The audit document as the audit statement makes it (AuditSql): the envelope plus the effective result. */
    private static String stored(Verification judged) {
        ObjectNode document = judged.envelope().root().deepCopy();
        document.set(document.has("effective_result") ? "claimguard_effective_result" : "effective_result",
                EffectiveResult.toNode(judged, AUDIT_ID));
        return JSON.writeValueAsString(document);
    }

    private static Envelope read(String envelope) {
        try {
            return READER.read(envelope.getBytes(StandardCharsets.UTF_8));
        } catch (EnvelopeRejectedException rejected) {
            throw new AssertionError("the rebuilt envelope is rejected: " + rejected.getMessage(), rejected);
        }
    }
}
