package io.claimguard.pipeline;

/**
 * The direct endpoints that join the routes. Every intake hands its input to {@link #VERIFY}; the verify route
 * calls the other four.
 */
public final class Pipeline {

    /** Reads, projects and guards the input, then audits and forwards it, or dead-letters it. */
    public static final String VERIFY = "direct:verify";
    /** Commits an accepted input's audit rows, then makes its effective result the message body. */
    public static final String AUDIT = "direct:audit";
    /**
     * Signs the effective result (the body) with the result-signing key, so that consumers can tell it from one that
     * ClaimGuard did not make; every way of sending it sends the signed text ({@link InputExchange#signedResult}).
     */
    public static final String SIGN = "direct:sign";
    /** Sends the effective result (the body) to the output queue. */
    public static final String FORWARD = "direct:forward";
    /** Records a rejected or failed input in {@code dead_letter}. */
    public static final String DEAD_LETTER = "direct:dead-letter";

    private Pipeline() {
    }
}
