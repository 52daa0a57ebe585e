package io.claimguard.cli;

import io.claimguard.support.Failures;
import io.claimguard.support.FileProblem;
import java.sql.SQLException;

/** A tool command could not do its work, for a reason the message states in words an operator can act on. */
public class ToolFailure extends RuntimeException {

    private final int exitCode;

    public ToolFailure(String message, Throwable cause) {
        this(message, cause, ExitCodes.UNAVAILABLE);
    }

    public ToolFailure(String message, Throwable cause, int exitCode) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    /** PostgreSQL's SQLSTATE for a table that does not exist. */
    private static final String UNDEFINED_TABLE = "42P01";

    /**
     * The failure and its causes as one line: each cause's message once, no class names unless there is no message; a
     * file's problem as {@link FileProblem} words it (the folder that does not exist, the permission); a missing audit
     * table says what that usually means. Every command's failure is printed through here.
     */
    static String describe(Throwable failure) {
        return causes(failure) + (hasCause(failure, UNDEFINED_TABLE)
                ? " (the database has no ClaimGuard tables: is it the service's database, and has the service started on"
                        + " it once? It creates them at start)"
                : "");
    }

    private static boolean hasCause(Throwable failure, String sqlState) {
        for (Throwable cause : Failures.causes(failure)) {
            if (cause instanceof SQLException sql && sqlState.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    private static String causes(Throwable failure) {
        StringBuilder line = new StringBuilder();
        String previous = null;
        for (Throwable cause : Failures.causes(failure)) {
            String fileProblem = FileProblem.describe(cause);
            String message = fileProblem != null ? fileProblem
                    : cause.getMessage() == null ? cause.getClass().getSimpleName()
                    : cause.getMessage().strip().lines().findFirst().orElse("");
            if (previous == null || !previous.contains(message)) {
                line.append(line.isEmpty() ? "" : ": ").append(message);
            }
            previous = message;
        }
        return line.toString();
    }
}
