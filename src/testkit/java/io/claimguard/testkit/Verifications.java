package io.claimguard.testkit;

import io.claimguard.domain.Finding;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.Verification;
import java.util.List;

/**
 * Verifications with findings a test chooses, whatever the domain's rules would find: for the code that stores,
 * forwards, counts and logs findings, which must handle any list.
 */
public final class Verifications {

    private Verifications() {
    }

    /** The verification of this envelope, with these findings instead of those its rules found. */
    public static Verification withFindings(Verification verification, List<Finding> findings) {
        return new Verification(verification.envelope(), verification.projection(), verification.guard(), findings);
    }

    /** The verification of this envelope, with these findings instead of those its rules found. */
    public static Verification withFindings(Envelopes envelope, Finding... findings) {
        return withFindings(envelope.verify(), List.of(findings));
    }

    /** Two findings on the claim check at ordinal 0 (one repeated code) and one on the whole output. */
    public static List<Finding> threeFindings() {
        return List.of(
                new Finding(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 0,
                        "source_invocation_ids 401 is not among the invocation_ids of trace-1 [394]"),
                new Finding(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 0,
                        "source_invocation_ids 402 is not among the invocation_ids of trace-1 [394]"),
                new Finding(FindingCode.CONSISTENCY_CRITICAL_FACT_COUNT_MISMATCH, null,
                        "critical_fact_count is 3; 2 critical claims were checked"));
    }
}
