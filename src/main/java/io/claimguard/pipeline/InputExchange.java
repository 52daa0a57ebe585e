package io.claimguard.pipeline;

import io.claimguard.domain.Verification;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;

/**
 * Typed access to what the routes know about the input an exchange carries, and the states the routes branch on.
 * The exchange properties behind it are this class's own: no route reads them by name.
 */
public final class InputExchange {

    private static final String INPUT = "claimguardInput";
    private static final String VERIFICATION = "claimguardVerification";
    private static final String DEAD_LETTER = "claimguardDeadLetter";
    private static final String OUTCOME = "claimguardOutcome";
    private static final String AUDIT_ID = "claimguardAuditId";
    private static final String SIGNED_RESULT = "claimguardSignedResult";
    private static final String INTAKE_SENDS_RESULT = "claimguardIntakeSendsResult";
    private static final String FORWARDED_BEFORE_ID = "claimguardForwardedBefore";

    /** Rejected as not an acceptable envelope: to be recorded in dead_letter, never audited. */
    public static final Predicate REJECTED = exchange -> outcome(exchange) == Outcome.REJECTED;
    /** Audited (now or before) and forwarded. */
    public static final Predicate FORWARDED = exchange -> outcome(exchange) != null && outcome(exchange).forwarded();
    /** Rejected or failed, and recorded in dead_letter: the intake sets the input aside. */
    public static final Predicate SET_ASIDE = exchange -> outcome(exchange) != null && outcome(exchange).setAside();
    /**
     * Nothing of the input is committed yet: a failure now may still dead-letter it. After the audit commit a
     * failure (forwarding) must leave the input unacknowledged instead, so that it comes again as a duplicate.
     */
    public static final Predicate BEFORE_AUDIT_COMMIT = exchange -> exchange.getProperty(AUDIT_ID) == null;
    /**
     * The intake sends the effective result itself, in the transaction that acknowledges the input (a JMS batch):
     * the pipeline leaves the result in the body instead of forwarding it.
     */
    public static final Predicate RESULT_SENT_BY_INTAKE = exchange -> exchange.getProperty(INTAKE_SENDS_RESULT) != null;
    /**
     * The intake forwarded this input's result before, with the audit_id it has now (an earlier attempt of the same
     * file, which failed in a later step): it is not sent again.
     */
    public static final Predicate FORWARDED_BEFORE = exchange -> {
        Object before = exchange.getProperty(FORWARDED_BEFORE_ID);
        return before != null && before.equals(exchange.getProperty(AUDIT_ID));
    };

    private InputExchange() {
    }

    /** Set by every intake before {@link Pipeline#VERIFY}. */
    public static void receive(Exchange exchange, ReceivedInput input) {
        exchange.setProperty(INPUT, input);
    }

    /** Said by an intake that sends results in its own transaction, before {@link Pipeline#VERIFY}. */
    public static void resultSentByIntake(Exchange exchange) {
        exchange.setProperty(INTAKE_SENDS_RESULT, Boolean.TRUE);
    }

    /** Said by an intake whose earlier attempt at the same input forwarded the result of this audit row. */
    public static void forwardedBefore(Exchange exchange, long auditId) {
        exchange.setProperty(FORWARDED_BEFORE_ID, auditId);
    }

    public static ReceivedInput input(Exchange exchange) {
        return exchange.getProperty(INPUT, ReceivedInput.class);
    }

    /** An acceptable envelope, projected and guarded. */
    public static void accept(Exchange exchange, Verification verification) {
        exchange.setProperty(VERIFICATION, verification);
    }

    public static Verification verification(Exchange exchange) {
        return exchange.getProperty(VERIFICATION, Verification.class);
    }

    public static void reject(Exchange exchange, DeadLetter deadLetter) {
        setAside(exchange, Outcome.REJECTED, deadLetter);
    }

    public static void fail(Exchange exchange, DeadLetter deadLetter) {
        setAside(exchange, Outcome.FAILED, deadLetter);
    }

    public static DeadLetter deadLetter(Exchange exchange) {
        return exchange.getProperty(DEAD_LETTER, DeadLetter.class);
    }

    /** The input's audit rows are committed (or were, for a byte-identical input before it). */
    public static void audited(Exchange exchange, long auditId, boolean created) {
        exchange.setProperty(AUDIT_ID, auditId);
        exchange.setProperty(OUTCOME, created ? Outcome.AUDITED : Outcome.DUPLICATE);
    }

    public static long auditId(Exchange exchange) {
        return exchange.getProperty(AUDIT_ID, Long.class);
    }

    /** The effective result signed, as every path sends it ({@link Pipeline#SIGN}). */
    public static void signed(Exchange exchange, SignedResult result) {
        exchange.setProperty(SIGNED_RESULT, result);
    }

    /** The signed effective result; fails for an input whose result was not signed, which must never be sent. */
    public static SignedResult signedResult(Exchange exchange) {
        SignedResult result = exchange.getProperty(SIGNED_RESULT, SignedResult.class);
        if (result == null) {
            throw new IllegalStateException("the effective result of " + input(exchange).sourceRef() + " is not signed");
        }
        return result;
    }

    /** What became of the input; null while it is still being processed. */
    public static Outcome outcome(Exchange exchange) {
        return exchange.getProperty(OUTCOME, Outcome.class);
    }

    private static void setAside(Exchange exchange, Outcome outcome, DeadLetter deadLetter) {
        exchange.setProperty(OUTCOME, outcome);
        exchange.setProperty(DEAD_LETTER, deadLetter);
    }
}
