package io.claimguard.explorer;

/**
 * {@code claimguard.explorer.users} cannot be used: the message says which entry and why, in one line, naming the
 * setting. Thrown before anything of the service starts ({@link OperatorsCheck}); {@link OperatorsFailureAnalyzer}
 * reports it without a stack trace.
 */
public class InvalidOperatorsException extends IllegalStateException {

    InvalidOperatorsException(String message) {
        super(message);
    }
}
