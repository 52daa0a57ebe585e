package io.claimguard.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The code-side verdict guard: the model may say PASS, but a failed gatekeeper, malformed executor output
 * or an unknown label caps the verdict. The guard never raises a verdict. A pure function.
 */
public final class VerdictGuard {

    public static final String INVOCATION_REF_CHECK = "evidence.invocation_ref";
    private static final int MAX_LISTED = 5;
    private static final String KNOWN_LABELS = Arrays.stream(ClaimVerification.values())
            .map(ClaimVerification::label)
            .collect(Collectors.joining(", "));

    private VerdictGuard() {
    }

    public static GuardDecision decide(Envelope envelope, Projection projection) {
        JsonNode input = envelope.verifierInput();
        List<GuardReason> reasons = new ArrayList<>();
        gatekeeper(input.path("gatekeeper_result"), reasons);
        parseStatus(input.path("executor_output_parse_status"), reasons);
        JsonNode verdictNode = envelope.verifierOutput().path("verdict");
        Optional<Verdict> modelVerdict = Verdict.parse(Json.string(verdictNode));
        if (modelVerdict.isEmpty()) {
            reasons.add(GuardReason.of(GuardRule.VERDICT_INVALID, verdictNode.isMissingNode()
                    ? "verifier_output.verdict is absent"
                    : "verifier_output.verdict " + verdictNode + " is not PASS, LOW_CONFID or REJECT"));
        }
        List<ProjectedClaim> unknown = projection.claimsWithUnknownVerification();
        if (!unknown.isEmpty()) {
            reasons.add(GuardReason.of(GuardRule.CLAIM_CHECKS_UNKNOWN_VERIFICATION, describeUnknown(unknown)));
        }

        // An invalid model verdict starts from PASS so that the caps alone decide, and counts as downgraded.
        Verdict effective = modelVerdict.orElse(Verdict.PASS);
        for (GuardReason reason : reasons) {
            effective = effective.strictest(reason.cap());
        }
        boolean downgraded = modelVerdict.map(effective::isStricterThan).orElse(true);
        return new GuardDecision(modelVerdict, effective, reasons, downgraded);
    }

    private static void gatekeeper(JsonNode result, List<GuardReason> reasons) {
        JsonNode statusNode = result.path("status");
        String status = Json.string(statusNode);
        if (status != null && Ascii.equalsIgnoreCase("pass", status)) {
            return;
        }
        if (status == null || !Ascii.equalsIgnoreCase("fail", status)) {
            String detail;
            if (Json.isAbsent(result)) {
                detail = "verifier_input.gatekeeper_result is absent";
            } else if (!result.isObject()) {
                detail = "verifier_input.gatekeeper_result is " + EnvelopeReader.describeType(result) + ", not an object";
            } else if (statusNode.isMissingNode()) {
                detail = "verifier_input.gatekeeper_result.status is absent";
            } else {
                detail = "verifier_input.gatekeeper_result.status " + statusNode + " is neither pass nor fail";
            }
            reasons.add(GuardReason.of(GuardRule.GATEKEEPER_MISSING, detail));
            return;
        }
        // A failures value that is not a list counts as absent: a failed gatekeeper must always cap.
        JsonNode failures = result.path("failures");
        List<JsonNode> listed = new ArrayList<>();
        if (failures.isArray()) {
            failures.values().forEach(listed::add);
        }
        List<JsonNode> invocationRef = listed.stream().filter(VerdictGuard::isInvocationRefFailure).toList();
        List<JsonNode> others = listed.stream().filter(failure -> !isInvocationRefFailure(failure)).toList();
        if (!invocationRef.isEmpty()) {
            reasons.add(GuardReason.of(GuardRule.GATEKEEPER_INVOCATION_REF,
                    "gatekeeper failed " + INVOCATION_REF_CHECK + describeDetails(invocationRef)));
        }
        if (listed.isEmpty()) {
            reasons.add(GuardReason.of(GuardRule.GATEKEEPER_FAIL, "gatekeeper status is fail with no failures listed"));
        } else if (!others.isEmpty()) {
            reasons.add(GuardReason.of(GuardRule.GATEKEEPER_FAIL, "gatekeeper failed " + describeChecks(others)));
        }
    }

    private static boolean isInvocationRefFailure(JsonNode failure) {
        return INVOCATION_REF_CHECK.equals(Json.string(failure.get("check")));
    }

    private static void parseStatus(JsonNode parseStatus, List<GuardReason> reasons) {
        JsonNode statusNode = parseStatus.path("status");
        String status = Json.string(statusNode);
        if (status != null && Ascii.equalsIgnoreCase("ok", status)) {
            return;
        }
        String detail;
        if (Json.isAbsent(parseStatus)) {
            detail = "verifier_input.executor_output_parse_status is absent";
        } else if (!parseStatus.isObject()) {
            detail = "verifier_input.executor_output_parse_status is " + EnvelopeReader.describeType(parseStatus)
                    + ", not an object";
        } else if (statusNode.isMissingNode()) {
            detail = "verifier_input.executor_output_parse_status.status is absent";
        } else {
            detail = "executor output parse status is " + statusNode;
            String error = Json.text(parseStatus.get("error"));
            if (error != null) {
                detail += ": " + error;
            }
        }
        reasons.add(GuardReason.of(GuardRule.PARSE_STATUS_NOT_OK, detail));
    }

    private static String describeChecks(List<JsonNode> failures) {
        String checks = failures.stream()
                .limit(MAX_LISTED)
                .map(failure -> {
                    String check = Json.text(failure.get("check"));
                    return check == null ? "a check without a name" : check;
                })
                .collect(Collectors.joining(", "));
        return checks + more(failures.size()) + describeDetails(failures);
    }

    private static String describeDetails(List<JsonNode> failures) {
        String details = failures.stream()
                .map(failure -> Json.text(failure.get("detail")))
                .filter(detail -> detail != null && !detail.isEmpty())
                .limit(MAX_LISTED)
                .collect(Collectors.joining("; "));
        return details.isEmpty() ? "" : ": " + details;
    }

    private static String describeUnknown(List<ProjectedClaim> unknown) {
        String listed = unknown.stream()
                .limit(MAX_LISTED)
                .map(claim -> "claim_checks[" + claim.ordinal() + "]"
                        + (claim.claimId() == null ? "" : " (" + claim.claimId() + ")") + " has "
                        + (claim.verification() == null ? "no verification" : "verification '" + claim.verification() + "'"))
                .collect(Collectors.joining(", "));
        return listed + more(unknown.size()) + "; known labels are " + KNOWN_LABELS;
    }

    private static String more(int size) {
        return size > MAX_LISTED ? " and " + (size - MAX_LISTED) + " more" : "";
    }
}
