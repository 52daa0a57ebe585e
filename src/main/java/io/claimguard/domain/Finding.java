package io.claimguard.domain;

/**
 * One thing found wrong with the verifier's evidence or the consistency of its output.
 *
 * @param code what was found
 * @param claimOrdinal the 0-based position of the claim check it concerns in {@code claim_checks}; null when it
 *     concerns the output as a whole (or an executor claim that no claim check covers)
 * @param detail a sentence saying what exactly, naming the values (never the claim text, which may hold customer data)
 */
public record Finding(FindingCode code, Integer claimOrdinal, String detail) {
}
