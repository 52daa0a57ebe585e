package io.claimguard.domain;

/**
 * The size limits an input must keep to.
 *
 * @param maxBytes the largest accepted input, in bytes
 * @param maxDepth the deepest accepted nesting of objects and arrays; the envelope object itself is depth 1
 */
public record Limits(int maxBytes, int maxDepth) {

    public static final Limits DEFAULTS = new Limits(1_048_576, 64);

    public Limits {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        if (maxDepth < 2) {
            throw new IllegalArgumentException("maxDepth must be at least 2 (envelope and verifier_output), got " + maxDepth);
        }
    }
}
