package io.claimguard.domain;

/**
 * What ClaimGuard found when it checked the verifier's evidence and the consistency of its output, in code: every
 * finding code there is, stable for queries, metrics and policies. A finding is recorded beside the verdict; it caps a
 * verdict only where a policy says so.
 */
public enum FindingCode {
    /** An {@code evidence_refs} entry that is not an object with a text {@code trace_ref}. */
    EVIDENCE_MALFORMED_REF("evidence.malformed_ref"),
    /** An evidence reference whose {@code trace_ref} names no trace of {@code verifier_input.tool_trace_summary}. */
    EVIDENCE_DANGLING_TRACE_REF("evidence.dangling_trace_ref"),
    /** An evidence reference whose {@code tool_name} is not the tool of the trace it names. */
    EVIDENCE_TOOL_MISMATCH("evidence.tool_mismatch"),
    /** A {@code source_invocation_ids} value that is not among the {@code invocation_ids} of the trace named. */
    EVIDENCE_UNKNOWN_INVOCATION("evidence.unknown_invocation"),
    /** A claim checked as {@code direct_observation} that cites no evidence at all. */
    EVIDENCE_NONE_FOR_DIRECT_OBSERVATION("evidence.none_for_direct_observation"),
    /** A critical claim checked as {@code contradicted} while the model said {@code PASS}. */
    CONSISTENCY_CONTRADICTED_CRITICAL_UNDER_PASS("consistency.contradicted_critical_under_pass"),
    /** A critical claim checked as {@code unsupported} while the model said {@code PASS}. */
    CONSISTENCY_UNSUPPORTED_CRITICAL_UNDER_PASS("consistency.unsupported_critical_under_pass"),
    /** {@code critical_fact_count} is not the number of critical claims checked. */
    CONSISTENCY_CRITICAL_FACT_COUNT_MISMATCH("consistency.critical_fact_count_mismatch"),
    /** {@code groundedness_score} is present but not a number from 0 to 1. */
    CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE("consistency.groundedness_out_of_range"),
    /** {@code groundedness_score} is at odds with the labels of the claim checks (the rule is in the spec). */
    CONSISTENCY_GROUNDEDNESS_AT_ODDS("consistency.groundedness_at_odds"),
    /** A claim of {@code executor_structured_output.claims} that no claim check covers. */
    CONSISTENCY_CLAIM_NOT_CHECKED("consistency.claim_not_checked"),
    /** A claim check whose {@code claim_id} is not a claim the executor made. */
    CONSISTENCY_CHECK_WITHOUT_CLAIM("consistency.check_without_claim");

    private final String code;

    FindingCode(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
