package io.claimguard.config;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardRule;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes the plain-Java domain core available to the routes, configured from {@code claimguard.limits} and
 * {@code claimguard.policy}.
 */
@Configuration(proxyBeanMethods = false)
public class DomainConfiguration {

    @Bean
    EnvelopeReader envelopeReader(ClaimGuardProperties properties) {
        return new EnvelopeReader(properties.limits());
    }

    /** The judgement policy from {@code claimguard.policy}; an unknown code or verdict stops the start-up, named. */
    @Bean
    Policy judgementPolicy(ClaimGuardProperties properties) {
        ClaimGuardProperties.Judgement settings = properties.policy();
        return new Policy(settings.name(), settings.version(),
                caps(settings.ruleCaps(), "rule-caps", GuardRule.class, GuardRule::code),
                caps(settings.findingCaps(), "finding-caps", FindingCode.class, FindingCode::code));
    }

    private static <K extends Enum<K>> Map<K, Verdict> caps(Map<String, String> configured, String property,
            Class<K> kind, Function<K, String> codeOf) {
        Map<K, Verdict> caps = new EnumMap<>(kind);
        configured.forEach((code, cap) -> {
            K key = Arrays.stream(kind.getEnumConstants()).filter(constant -> codeOf.apply(constant).equals(code))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("claimguard.policy." + property + ": "
                            + code + " is not one of " + Arrays.stream(kind.getEnumConstants()).map(codeOf).toList()));
            caps.put(key, Verdict.parse(cap).orElseThrow(() -> new IllegalArgumentException("claimguard.policy."
                    + property + "." + code + ": " + cap + " is not PASS, LOW_CONFID or REJECT")));
        });
        return caps;
    }
}
