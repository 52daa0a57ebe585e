package io.claimguard.domain;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Consistency of the verifier's output as a whole: its claim labels against its verdict, its counts and score
 * against its claim checks, and its claim checks against the executor's claims. The rules are in
 * openspec/specs/evidence-findings/spec.md.
 */
final class ConsistencyCheck {

    private static final String CLAIMS = "verifier_input.executor_structured_output.claims";
    /** The largest distance between groundedness_score and the share of supported claims that is not at odds. */
    private static final BigDecimal MAX_SCORE_DISTANCE = new BigDecimal("0.5");
    private static final String CRITICAL_TYPES = String.join(", ", LegacyProjection.CRITICAL_CLAIM_TYPES.stream().sorted().toList());

    private ConsistencyCheck() {
    }

    static void check(Envelope envelope, Projection projection, GuardDecision guard, List<Finding> findings) {
        JsonNode output = envelope.verifierOutput();
        boolean claimChecksListed = output.path("claim_checks").isArray();
        if (guard.modelVerdict().equals(Optional.of(Verdict.PASS))) {
            criticalClaimsUnderPass(projection, findings);
        }
        if (claimChecksListed) {
            criticalFactCount(output.path("critical_fact_count"), projection, findings);
        }
        groundedness(output.path("groundedness_score"), projection, findings);
        JsonNode executorClaims = envelope.verifierInput().path("executor_structured_output").path("claims");
        if (claimChecksListed && executorClaims.isArray()) {
            claimCoverage(executorClaims, projection, findings);
        }
    }

    private static void criticalClaimsUnderPass(Projection projection, List<Finding> findings) {
        for (ProjectedClaim claim : projection.claims()) {
            if (!claim.critical()) {
                continue;
            }
            Optional<FindingCode> code = claim.knownVerification().flatMap(verification -> switch (verification) {
                case CONTRADICTED -> Optional.of(FindingCode.CONSISTENCY_CONTRADICTED_CRITICAL_UNDER_PASS);
                case UNSUPPORTED -> Optional.of(FindingCode.CONSISTENCY_UNSUPPORTED_CRITICAL_UNDER_PASS);
                default -> Optional.empty();
            });
            code.ifPresent(found -> findings.add(new Finding(found, claim.ordinal(), Findings.claimCheckLabel(claim) + ", a "
                    + claim.claimType() + " claim, is checked as " + claim.verification() + " while the model verdict is PASS")));
        }
    }

    private static void criticalFactCount(JsonNode countNode, Projection projection, List<Finding> findings) {
        Optional<BigDecimal> count = Findings.decimal(countNode).filter(ConsistencyCheck::isWhole);
        long critical = projection.claims().stream().filter(ProjectedClaim::critical).count();
        if (count.isPresent() && count.get().compareTo(BigDecimal.valueOf(critical)) != 0) {
            findings.add(new Finding(FindingCode.CONSISTENCY_CRITICAL_FACT_COUNT_MISMATCH, null, "critical_fact_count is "
                    + Findings.value(countNode) + ", but " + critical + " of " + projection.claims().size()
                    + " claim checks are of a critical claim_type (" + CRITICAL_TYPES + ")"));
        }
    }

    /** Whole, also when written with a fraction of zeros (3.0); a very long number with a fraction never is. */
    private static boolean isWhole(BigDecimal number) {
        return number.scale() <= 0 || Findings.withoutTrailingZeros(number).map(stripped -> stripped.scale() <= 0).orElse(false);
    }

    private static void groundedness(JsonNode scoreNode, Projection projection, List<Finding> findings) {
        if (Json.isAbsent(scoreNode)) {
            return;
        }
        Optional<BigDecimal> score = Findings.decimal(scoreNode);
        if (score.isEmpty() || score.get().signum() < 0 || score.get().compareTo(BigDecimal.ONE) > 0) {
            findings.add(new Finding(FindingCode.CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE, null, score.isPresent()
                    ? "groundedness_score " + Findings.value(scoreNode) + " is not from 0 to 1"
                    : "groundedness_score is " + EnvelopeReader.describeType(scoreNode) + ", not a number from 0 to 1"));
            return;
        }
        int checked = projection.claims().size();
        if (checked == 0) {
            return;
        }
        long supported = projection.claims().stream().filter(ConsistencyCheck::isSupported).count();
        // |score - supported/checked| > 0.5, exactly and without dividing: score * checked outside supported ± checked/2.
        // Compared, never subtracted: a score such as 1e-999999999 is in range and subtracting would expand it.
        BigDecimal scaledScore = score.get().multiply(BigDecimal.valueOf(checked));
        BigDecimal allowed = MAX_SCORE_DISTANCE.multiply(BigDecimal.valueOf(checked));
        BigDecimal supportedCount = BigDecimal.valueOf(supported);
        if (scaledScore.compareTo(supportedCount.add(allowed)) > 0 || scaledScore.compareTo(supportedCount.subtract(allowed)) < 0) {
            findings.add(new Finding(FindingCode.CONSISTENCY_GROUNDEDNESS_AT_ODDS, null, "groundedness_score "
                    + Findings.value(scoreNode) + " is more than 0.5 away from the share of claim checks labelled"
                    + " direct_observation or reasonable_inference: " + supported + " of " + checked + " ("
                    + String.format(Locale.ROOT, "%.2f", (double) supported / checked) + ")"));
        }
    }

    private static boolean isSupported(ProjectedClaim claim) {
        return claim.knownVerification()
                .filter(verification -> verification == ClaimVerification.DIRECT_OBSERVATION
                        || verification == ClaimVerification.REASONABLE_INFERENCE)
                .isPresent();
    }

    private static void claimCoverage(JsonNode executorClaims, Projection projection, List<Finding> findings) {
        Set<String> checkedIds = new HashSet<>();
        projection.claims().stream().map(ProjectedClaim::claimId).filter(Objects::nonNull).forEach(checkedIds::add);
        Set<String> madeIds = new HashSet<>();
        for (int index = 0; index < executorClaims.size(); index++) {
            String claimId = Json.text(executorClaims.get(index).get("claim_id"));
            if (claimId == null) {
                continue;
            }
            madeIds.add(claimId);
            if (!checkedIds.contains(claimId)) {
                findings.add(new Finding(FindingCode.CONSISTENCY_CLAIM_NOT_CHECKED, null, CLAIMS + "[" + index + "] (claim_id "
                        + Findings.quoted(claimId) + ") has no claim check with that claim_id"));
            }
        }
        for (ProjectedClaim claim : projection.claims()) {
            if (claim.claimId() != null && !madeIds.contains(claim.claimId())) {
                findings.add(new Finding(FindingCode.CONSISTENCY_CHECK_WITHOUT_CLAIM, claim.ordinal(), Findings.claimCheckLabel(claim)
                        + " checks a claim_id that is not among the claims of " + CLAIMS));
            }
        }
    }
}
