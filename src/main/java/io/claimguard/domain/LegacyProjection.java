package io.claimguard.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Derives the legacy {@code facts_checked} list that the chat front end reads from the verifier's V2
 * {@code claim_checks}. A pure function of the verifier output.
 */
public final class LegacyProjection {

    /** Claim types whose facts count as critical in the legacy list. */
    public static final Set<String> CRITICAL_CLAIM_TYPES = Set.of("root_cause", "symptom", "impact", "risk");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private LegacyProjection() {
    }

    public static Projection project(JsonNode verifierOutput) {
        JsonNode claimChecks = verifierOutput.path("claim_checks");
        boolean factsEmitted = !Json.isAbsent(verifierOutput.path("facts_checked"));
        if (!claimChecks.isArray()) {
            // No claim_checks, null, or a value that is not a list: there is nothing to project from.
            return factsEmitted
                    ? new Projection(ProjectionMode.LEGACY, verifierOutput.get("facts_checked"), List.of())
                    : new Projection(ProjectionMode.NONE, NODES.arrayNode(), List.of());
        }
        List<ProjectedClaim> claims = new ArrayList<>(claimChecks.size());
        ArrayNode facts = NODES.arrayNode(claimChecks.size());
        for (int ordinal = 0; ordinal < claimChecks.size(); ordinal++) {
            ProjectedClaim claim = projectClaim(ordinal, claimChecks.get(ordinal));
            claims.add(claim);
            facts.add(legacyFact(claim, claimChecks.get(ordinal)));
        }
        return new Projection(factsEmitted ? ProjectionMode.CLAIM_CHECKS_REPLACED : ProjectionMode.CLAIM_CHECKS, facts, claims);
    }

    private static ProjectedClaim projectClaim(int ordinal, JsonNode check) {
        String claimType = Json.text(check.get("claim_type"));
        JsonNode verificationNode = check.get("verification");
        Optional<ClaimVerification> known = ClaimVerification.fromLabel(Json.string(verificationNode));
        JsonNode evidenceRefs = check.get("evidence_refs");
        return new ProjectedClaim(
                ordinal,
                Json.text(check.get("claim_id")),
                Json.text(check.get("claim_text")),
                claimType,
                Json.text(verificationNode),
                known,
                known.map(ClaimVerification::legacy).orElse(LegacyVerification.NO_EVIDENCE),
                claimType != null && check.path("claim_type").isString() && CRITICAL_CLAIM_TYPES.contains(claimType),
                Json.text(check.get("detail")),
                Json.isAbsent(evidenceRefs) ? NODES.arrayNode() : evidenceRefs);
    }

    private static ObjectNode legacyFact(ProjectedClaim claim, JsonNode check) {
        ObjectNode fact = NODES.objectNode();
        fact.put("fact", nullToEmpty(claim.claimId()) + ": " + nullToEmpty(claim.claimText()));
        fact.put("is_critical", claim.critical());
        fact.put("verification", claim.legacyVerification().label());
        JsonNode detail = check.get("detail");
        fact.set("detail", detail == null ? NODES.nullNode() : detail);
        fact.set("evidence_refs", claim.evidenceRefs());
        return fact;
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }
}
