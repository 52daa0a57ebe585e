package io.claimguard.domain;

import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The legacy view of one verifier output.
 *
 * @param mode where {@code factsChecked} came from
 * @param factsChecked the effective {@code facts_checked} list
 * @param claims every claim check read, in order; empty unless {@code claim_checks} was an array
 */
public record Projection(ProjectionMode mode, JsonNode factsChecked, List<ProjectedClaim> claims) {

    public Projection {
        claims = List.copyOf(claims);
    }

    public List<ProjectedClaim> claimsWithUnknownVerification() {
        return claims.stream().filter(claim -> claim.knownVerification().isEmpty()).toList();
    }
}
