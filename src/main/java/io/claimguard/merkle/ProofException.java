package io.claimguard.merkle;

/**
 * A proof that does not prove what it was given to prove, with a message naming what is wrong and a {@link Reason}
 * for callers that act on the kind (a command-line exit code, a receipt's status).
 */
public final class ProofException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What is wrong with the claim. */
    public enum Reason {
        /** The leaf index is not below the tree size. */
        INDEX_OUT_OF_RANGE,
        /** The tree sizes cannot be compared: old size 0, or larger than the new size. */
        SIZE_OUT_OF_RANGE,
        /** A leaf hash, root or proof element is not a 32-byte hash. */
        MALFORMED_HASH,
        /** The proof does not have the number of hashes the sizes (and index) call for. */
        WRONG_PROOF_LENGTH,
        /** The proof is well formed but the root it leads to is not the root given. */
        ROOT_MISMATCH
    }

    private final Reason reason;

    ProofException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
