package io.claimguard.verify;

/** The names the routes share: direct endpoints and exchange properties. */
public final class Pipeline {

    public static final String VERIFY = "direct:verify";
    /** Commits an accepted input's audit rows; sets {@link #AUDIT_ID} and the effective result as the body. */
    public static final String AUDIT = "direct:audit";
    public static final String FORWARD = "direct:forward";
    /** Records a rejected or failed input (the body holds its dead_letter statement) and sets it aside. */
    public static final String DEAD_LETTER = "direct:dead-letter";

    /** {@link io.claimguard.ingest.ReceivedInput}: set by every intake route before {@link #VERIFY}. */
    public static final String INPUT = "claimguardInput";
    /** {@link io.claimguard.domain.Verification} of an accepted envelope. */
    public static final String VERIFICATION = "claimguardVerification";
    /** The reason text of a rejected or failed input, as stored in {@code dead_letter.reason}. */
    public static final String DEAD_LETTER_REASON = "claimguardDeadLetterReason";
    /** The stable reason code of a rejected or failed input, as stored in {@code dead_letter.reason_code}. */
    public static final String DEAD_LETTER_CODE = "claimguardDeadLetterCode";
    /** {@link Outcome}: what became of the input. */
    public static final String OUTCOME = "claimguardOutcome";
    /** The audit row's id, once committed. */
    public static final String AUDIT_ID = "claimguardAuditId";

    private Pipeline() {
    }
}
