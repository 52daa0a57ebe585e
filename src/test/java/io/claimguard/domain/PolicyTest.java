package io.claimguard.domain;

import static io.claimguard.domain.SeededCases.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.Envelopes;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PolicyTest {

    private static final Finding UNKNOWN_INVOCATION = new Finding(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 1,
            "evidence_refs[0] cites invocation 401, which trace-2 does not hold");
    private static final Finding DANGLING = new Finding(FindingCode.EVIDENCE_DANGLING_TRACE_REF, 0,
            "evidence_refs[0] names trace-9, which tool_trace_summary does not hold");

    @Test
    @DisplayName("Scenario: Under the default policy the verdict is the contract guard's")
    void contractPolicyChangesNothing() {
        Envelope envelope = Envelopes.read(Envelopes.gatekeeperFailedV2("policy-default").getBytes(StandardCharsets.UTF_8));
        Verification underContract = Verification.of(envelope, Policy.CONTRACT);
        GuardDecision guardAlone = VerdictGuard.decide(envelope, underContract.projection());

        assertThat(underContract.guard()).isEqualTo(guardAlone);
        assertThat(Policy.CONTRACT.judge(guardAlone, List.of(UNKNOWN_INVOCATION, DANGLING))).isSameAs(guardAlone);
        assertThat(Policy.CONTRACT.id()).isEqualTo("default@1");
    }

    @Test
    @DisplayName("Scenario: A finding the policy caps caps the verdict and is recorded as a reason")
    void findingCapCaps() {
        Policy policy = new Policy("strict-evidence", 2, Map.of(),
                Map.of(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, Verdict.LOW_CONFID));
        GuardDecision passed = new GuardDecision(Optional.of(Verdict.PASS), Verdict.PASS, List.of(), false);

        GuardDecision judged = policy.judge(passed, List.of(DANGLING, UNKNOWN_INVOCATION, UNKNOWN_INVOCATION));

        assertThat(judged.effectiveVerdict()).isEqualTo(Verdict.LOW_CONFID);
        assertThat(judged.downgraded()).isTrue();
        assertThat(judged.reasons()).containsExactly(new GuardReason("evidence.unknown_invocation", Verdict.LOW_CONFID,
                UNKNOWN_INVOCATION.detail() + "; " + UNKNOWN_INVOCATION.detail()));
        assertThat(policy.id()).isEqualTo("strict-evidence@2");
        assertThat(policy.judge(passed, List.of(DANGLING))).as("a finding the policy does not cap").isSameAs(passed);
    }

    @Test
    @DisplayName("Scenario: Capping a finding changes exactly the examples with that finding whose verdict was less strict")
    void findingCapOverTheExamples() {
        Policy strict = new Policy("strict-evidence", 1, Map.of(),
                Map.of(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, Verdict.LOW_CONFID));
        List<String> changed = new ArrayList<>();
        List<String> withTheFinding = new ArrayList<>();
        for (ExampleEnvelopes.Example example : ExampleEnvelopes.load(Path.of("examples"))) {
            Envelope envelope = Envelopes.read(example.json().getBytes(StandardCharsets.UTF_8));
            Verification contract = Verification.of(envelope);
            Verification judged = Verification.of(envelope, strict);
            if (judged.guard().effectiveVerdict() != contract.guard().effectiveVerdict()) {
                changed.add(example.name());
            }
            if (contract.findings().stream().anyMatch(f -> f.code() == FindingCode.EVIDENCE_UNKNOWN_INVOCATION)
                    && contract.guard().effectiveVerdict() == Verdict.PASS) {
                withTheFinding.add(example.name());
            }
        }
        assertThat(changed).isNotEmpty().containsExactlyInAnyOrderElementsOf(withTheFinding);
    }

    @Test
    @DisplayName("Scenario: A stricter rule cap applies, a looser one is refused")
    void ruleCaps() {
        Policy stricter = new Policy("gatekeeper-rejects", 1, Map.of(GuardRule.GATEKEEPER_FAIL, Verdict.REJECT), Map.of());
        GuardDecision failedGatekeeper = new GuardDecision(Optional.of(Verdict.PASS), Verdict.LOW_CONFID,
                List.of(GuardReason.of(GuardRule.GATEKEEPER_FAIL, "gatekeeper failed evidence.time_window")), true);

        GuardDecision judged = stricter.judge(failedGatekeeper, List.of());

        assertThat(judged.effectiveVerdict()).isEqualTo(Verdict.REJECT);
        assertThat(judged.reasons()).containsExactly(
                new GuardReason("gatekeeper.fail", Verdict.REJECT, "gatekeeper failed evidence.time_window"));
        assertThatThrownBy(() -> new Policy("loose", 1, Map.of(GuardRule.GATEKEEPER_FAIL, Verdict.PASS), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("policy loose: gatekeeper.fail may not cap at PASS, less strict than the contract's LOW_CONFID");
        assertThatThrownBy(() -> new Policy("bad name!", 1, Map.of(), Map.of())).hasMessageContaining("bad name!");
        assertThatThrownBy(() -> new Policy("v0", 0, Map.of(), Map.of())).hasMessageContaining("version must be 1 or more");
    }

    @Test
    @DisplayName("Scenario: A cap from a finding never raises a verdict")
    void findingCapsNeverRaise() {
        forAll("a cap from a finding never raises a verdict", 2_000, PolicyTest::judgementCase, JudgementCase::toString,
                judgement -> {
                    GuardDecision judged = judgement.policy().judge(judgement.guard(), judgement.findings());
                    assertThat(judged.effectiveVerdict().isStricterThan(judgement.guard().effectiveVerdict())
                            || judged.effectiveVerdict() == judgement.guard().effectiveVerdict()).isTrue();
                    assertThat(judged.modelVerdict()).isEqualTo(judgement.guard().modelVerdict());
                    assertThat(judged.downgraded()).isEqualTo(judged.modelVerdict()
                            .map(judged.effectiveVerdict()::isStricterThan).orElse(true));
                    assertThat(judged.reasonCodes().subList(0, judgement.guard().reasons().size()))
                            .isEqualTo(judgement.guard().reasonCodes());
                });
    }

    /** A guard decision as the contract's guard makes them, findings, and a policy, all at random. */
    private record JudgementCase(GuardDecision guard, List<Finding> findings, Policy policy) {
    }

    private static JudgementCase judgementCase(SeededCases.Gen gen) {
        Optional<Verdict> model = gen.chance(0.1) ? Optional.empty() : Optional.of(gen.pick(Verdict.values()));
        List<GuardReason> reasons = new ArrayList<>();
        for (GuardRule rule : GuardRule.values()) {
            if (gen.chance(0.2)) {
                reasons.add(GuardReason.of(rule, "fired"));
            }
        }
        Verdict effective = model.orElse(Verdict.PASS);
        for (GuardReason reason : reasons) {
            effective = effective.strictest(reason.cap());
        }
        Verdict finalEffective = effective;
        GuardDecision guard = new GuardDecision(model, effective, reasons,
                model.map(finalEffective::isStricterThan).orElse(true));
        List<Finding> findings = gen.list(0, 6, () -> new Finding(gen.pick(FindingCode.values()),
                gen.chance(0.5) ? gen.between(0, 5) : null, "found"));
        return new JudgementCase(guard, findings, anyPolicy(gen));
    }

    /** A policy at random: some rules capped stricter, some findings capping. */
    static Policy anyPolicy(SeededCases.Gen gen) {
        Map<GuardRule, Verdict> ruleCaps = new EnumMap<>(GuardRule.class);
        for (GuardRule rule : GuardRule.values()) {
            if (gen.chance(0.2)) {
                ruleCaps.put(rule, rule.cap().strictest(gen.pick(Verdict.values())));
            }
        }
        Map<FindingCode, Verdict> findingCaps = new EnumMap<>(FindingCode.class);
        for (FindingCode code : FindingCode.values()) {
            if (gen.chance(0.3)) {
                findingCaps.put(code, gen.pick(Verdict.values()));
            }
        }
        return new Policy("random", 1, ruleCaps, findingCaps);
    }
}
