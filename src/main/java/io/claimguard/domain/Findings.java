package io.claimguard.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Checks the verifier's evidence against the tool traces it was given, and its output for consistency: a pure function
 * of the envelope, its projection and the guard's reading of the model verdict, like {@link VerdictGuard}. Findings
 * never change the verdict; they are recorded beside it. Any value an accepted envelope can hold is read without
 * throwing.
 */
public final class Findings {

    /** Values named in a detail are cut to this many characters, so that a detail stays a sentence. */
    static final int MAX_VALUE_LENGTH = 64;
    // Numbers with longer unscaled values are compared as written: stripping their zeros could take quadratic time.
    private static final int MAX_COMPARED_NUMBER_BITS = 512;

    private Findings() {
    }

    /** Every finding for one envelope, evidence findings first (in claim order), then consistency findings. */
    public static List<Finding> of(Envelope envelope, Projection projection, GuardDecision guard) {
        List<Finding> findings = new ArrayList<>();
        EvidenceCheck.check(envelope.verifierInput(), projection, findings);
        ConsistencyCheck.check(envelope, projection, guard, findings);
        return List.copyOf(findings);
    }

    /** How a detail names a claim check: its position and, when it has one, its claim_id. */
    static String claimCheckLabel(ProjectedClaim claim) {
        return "claim_checks[" + claim.ordinal() + "]" + (claim.claimId() == null ? "" : " (claim_id " + quoted(claim.claimId()) + ")");
    }

    /** A value as JSON text, cut to {@value #MAX_VALUE_LENGTH} characters. */
    static String value(JsonNode node) {
        return node.isString() ? quoted(node.stringValue()) : cut(node.toString());
    }

    /** Text as a JSON string, cut to {@value #MAX_VALUE_LENGTH} characters; cut before escaping too, to bound the work. */
    static String quoted(String text) {
        return cut(JsonNodeFactory.instance.stringNode(cut(text)).toString());
    }

    private static String cut(String text) {
        if (text.length() <= MAX_VALUE_LENGTH) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(MAX_VALUE_LENGTH - 1)) ? MAX_VALUE_LENGTH - 1 : MAX_VALUE_LENGTH;
        return text.substring(0, end) + "…";
    }

    /** A number's exact value, or empty when the node is not a finite number. */
    static Optional<BigDecimal> decimal(JsonNode node) {
        return node != null && node.isNumber() ? node.decimalValueOpt() : Optional.empty();
    }

    /**
     * A number's value without trailing zeros, so that 394 and 394.0 are equal, or empty when the node is not a finite
     * number or too long to strip cheaply.
     */
    static Optional<BigDecimal> canonicalNumber(JsonNode node) {
        return decimal(node).flatMap(Findings::withoutTrailingZeros);
    }

    static Optional<BigDecimal> withoutTrailingZeros(BigDecimal number) {
        return number.unscaledValue().bitLength() <= MAX_COMPARED_NUMBER_BITS
                ? Optional.of(number.stripTrailingZeros())
                : Optional.empty();
    }
}
