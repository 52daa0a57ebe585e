package io.claimguard.domain;

import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One claim check as the projection read it: the row of {@code claimguard.claim_check}.
 *
 * @param ordinal 0-based position in {@code claim_checks}
 * @param claimId the claim id as text; null when absent
 * @param claimText the claim text as text; null when absent
 * @param claimType the claim type as text; null when absent
 * @param verification the V2 label as received, as text; null when absent
 * @param knownVerification the label when it is one of the six
 * @param legacyVerification the projected legacy label
 * @param critical whether the claim type makes it a critical fact
 * @param detail the detail as text; null when absent
 * @param evidenceRefs the evidence references as received, an empty array where absent
 */
public record ProjectedClaim(
        int ordinal,
        String claimId,
        String claimText,
        String claimType,
        String verification,
        Optional<ClaimVerification> knownVerification,
        LegacyVerification legacyVerification,
        boolean critical,
        String detail,
        JsonNode evidenceRefs) {
}
