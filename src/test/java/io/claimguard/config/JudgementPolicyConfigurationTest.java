package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardRule;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class JudgementPolicyConfigurationTest {

    @Test
    @DisplayName("Scenario: Turning a finding into a cap is one configuration line")
    void oneLine() {
        Policy policy = policyFrom(Map.of(
                "claimguard.policy.name", "strict-evidence",
                "claimguard.policy.version", "2",
                "claimguard.policy.finding-caps[evidence.unknown_invocation]", "LOW_CONFID",
                "claimguard.policy.rule-caps[gatekeeper.fail]", "reject"));

        assertThat(policy.id()).isEqualTo("strict-evidence@2");
        assertThat(policy.findingCaps()).containsExactly(Map.entry(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, Verdict.LOW_CONFID));
        assertThat(policy.ruleCaps()).containsExactly(Map.entry(GuardRule.GATEKEEPER_FAIL, Verdict.REJECT));
        assertThat(policyFrom(Map.of("claimguard.policy.name", "default", "claimguard.policy.version", "1")))
                .isEqualTo(Policy.CONTRACT);
    }

    @Test
    @DisplayName("Scenario: A policy with an unknown code or cap is refused at start-up, named")
    void unknownCodesAreNamed() {
        assertThatThrownBy(() -> policyFrom(Map.of("claimguard.policy.name", "p", "claimguard.policy.version", "1",
                "claimguard.policy.finding-caps[evidence.made_up]", "LOW_CONFID")))
                .hasMessageStartingWith("claimguard.policy.finding-caps: evidence.made_up is not one of [evidence.malformed_ref,");
        assertThatThrownBy(() -> policyFrom(Map.of("claimguard.policy.name", "p", "claimguard.policy.version", "1",
                "claimguard.policy.rule-caps[gatekeeper.fail]", "LOW")))
                .hasMessage("claimguard.policy.rule-caps.gatekeeper.fail: LOW is not PASS, LOW_CONFID or REJECT");
    }

    private static Policy policyFrom(Map<String, String> settings) {
        ClaimGuardProperties properties = new Binder(new MapConfigurationPropertySource(new LinkedHashMap<>(settings)))
                .bind("claimguard", ClaimGuardProperties.class).get();
        return new DomainConfiguration().judgementPolicy(properties);
    }
}
