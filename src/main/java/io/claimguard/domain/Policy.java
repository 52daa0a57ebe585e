package io.claimguard.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A named, versioned judgement policy: the cap of each guard rule, and which findings cap the verdict and at what.
 * The default ({@link #CONTRACT}) is the contract's guard: its caps, and no finding caps. A policy may make a rule's cap
 * stricter, never looser (a failed gatekeeper can never let a PASS through), and a finding cap never raises a verdict.
 * Every audit row records the {@link #id} of the policy that judged it, so that a replay can re-judge it under another.
 *
 * @param name what the policy is called ({@code [A-Za-z0-9._-]}, 1 to 64 characters)
 * @param version its version, from 1; a changed policy must get a new version
 * @param ruleCaps caps that differ from the contract's, by rule; rules not named keep the contract's
 * @param findingCaps the findings that cap, by code, and at what
 */
public record Policy(String name, int version, Map<GuardRule, Verdict> ruleCaps, Map<FindingCode, Verdict> findingCaps) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** How many finding details a finding cap's reason quotes before it counts the rest. */
    private static final int DETAILS_QUOTED = 2;

    /** The contract's guard: every rule at its contract cap, no finding caps. (After the constants it uses.) */
    public static final Policy CONTRACT = new Policy("default", 1, Map.of(), Map.of());

    public Policy {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a policy name must be 1 to 64 of [A-Za-z0-9._-], got " + name);
        }
        if (version < 1) {
            throw new IllegalArgumentException("policy " + name + ": the version must be 1 or more, got " + version);
        }
        for (Map.Entry<GuardRule, Verdict> cap : ruleCaps.entrySet()) {
            if (cap.getKey().cap().isStricterThan(cap.getValue())) {
                throw new IllegalArgumentException("policy " + name + ": " + cap.getKey().code() + " may not cap at "
                        + cap.getValue() + ", less strict than the contract's " + cap.getKey().cap());
            }
        }
        ruleCaps = Collections.unmodifiableMap(ruleCaps.isEmpty() ? new EnumMap<>(GuardRule.class) : new EnumMap<>(ruleCaps));
        findingCaps = Collections.unmodifiableMap(
                findingCaps.isEmpty() ? new EnumMap<>(FindingCode.class) : new EnumMap<>(findingCaps));
    }

    /**
     * A policy from its settings as an operator writes them (configuration {@code claimguard.policy}, the replay
     * command's options): caps by rule or finding code, verdicts by name in any case. The one conversion both use.
     *
     * @throws IllegalArgumentException naming the setting and the known codes, for an unknown code or a cap that is
     *     not a verdict; or as the constructor does, for a bad name or version or a looser rule cap
     */
    public static Policy of(String name, int version, Map<String, String> ruleCaps, Map<String, String> findingCaps) {
        return new Policy(name, version, caps(ruleCaps, "rule-caps", GuardRule.class, GuardRule::code),
                caps(findingCaps, "finding-caps", FindingCode.class, FindingCode::code));
    }

    private static <K extends Enum<K>> Map<K, Verdict> caps(Map<String, String> configured, String setting,
            Class<K> kind, Function<K, String> codeOf) {
        Map<K, Verdict> caps = new EnumMap<>(kind);
        configured.forEach((code, cap) -> {
            K key = Arrays.stream(kind.getEnumConstants()).filter(constant -> codeOf.apply(constant).equals(code))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("claimguard.policy." + setting + ": "
                            + code + " is not one of " + Arrays.stream(kind.getEnumConstants()).map(codeOf).toList()));
            caps.put(key, Verdict.parse(cap).orElseThrow(() -> new IllegalArgumentException("claimguard.policy."
                    + setting + "." + code + ": " + cap + " is not PASS, LOW_CONFID or REJECT")));
        });
        return caps;
    }

    /** How audit rows name the policy: {@code <name>@<version>}, e.g. {@code default@1}. */
    public String id() {
        return name + "@" + version;
    }

    /**
     * The verdict under this policy: the guard rules' reasons at this policy's caps, then one reason per finding code
     * this policy caps (in finding order), the effective verdict the strictest of the model's (PASS when invalid) and
     * every cap. Under {@link #CONTRACT} it is the guard's decision unchanged. A pure function.
     */
    public GuardDecision judge(GuardDecision guard, List<Finding> findings) {
        List<GuardReason> reasons = new ArrayList<>(guard.reasons().size());
        for (GuardReason reason : guard.reasons()) {
            Verdict cap = GuardRule.ofCode(reason.code()).map(rule -> ruleCaps.getOrDefault(rule, reason.cap()))
                    .orElse(reason.cap());
            reasons.add(cap == reason.cap() ? reason : reason.cappedAt(cap));
        }
        Map<FindingCode, List<Finding>> capping = new LinkedHashMap<>();
        for (Finding finding : findings) {
            if (findingCaps.containsKey(finding.code())) {
                capping.computeIfAbsent(finding.code(), code -> new ArrayList<>()).add(finding);
            }
        }
        capping.forEach((code, found) -> reasons.add(new GuardReason(code.code(), findingCaps.get(code), describe(found))));
        if (reasons.equals(guard.reasons())) {
            return guard;
        }
        Verdict effective = guard.modelVerdict().orElse(Verdict.PASS);
        for (GuardReason reason : reasons) {
            effective = effective.strictest(reason.cap());
        }
        boolean downgraded = guard.modelVerdict().map(effective::isStricterThan).orElse(true);
        return new GuardDecision(guard.modelVerdict(), effective, reasons, downgraded);
    }

    private static String describe(List<Finding> found) {
        StringBuilder detail = new StringBuilder();
        for (int i = 0; i < Math.min(DETAILS_QUOTED, found.size()); i++) {
            detail.append(i == 0 ? "" : "; ").append(found.get(i).detail());
        }
        if (found.size() > DETAILS_QUOTED) {
            detail.append(" (and ").append(found.size() - DETAILS_QUOTED).append(" more)");
        }
        return detail.toString();
    }
}
