package io.claimguard.domain;

import java.util.List;
import java.util.Optional;

/**
 * What the verdict guard made of the model's verdict.
 *
 * @param modelVerdict the model's verdict, empty when it was absent or not one of the three
 * @param effectiveVerdict the strictest of the model's verdict and every cap
 * @param reasons every rule that fired, in rule order, also those that changed nothing
 * @param downgraded true exactly when the effective verdict is stricter than the model's
 *     (always true for an invalid model verdict)
 */
public record GuardDecision(
        Optional<Verdict> modelVerdict, Verdict effectiveVerdict, List<GuardReason> reasons, boolean downgraded) {

    public GuardDecision {
        reasons = List.copyOf(reasons);
    }

    public List<String> reasonCodes() {
        return reasons.stream().map(GuardReason::code).toList();
    }
}
