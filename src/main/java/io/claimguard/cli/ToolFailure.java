package io.claimguard.cli;

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

    /** The failure and its causes as one line: each cause's message once, no class names unless there is no message. */
    static String describe(Throwable failure) {
        StringBuilder line = new StringBuilder();
        String previous = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage() == null ? cause.getClass().getSimpleName()
                    : cause.getMessage().strip().lines().findFirst().orElse("");
            if (previous == null || !previous.contains(message)) {
                line.append(line.isEmpty() ? "" : ": ").append(message);
            }
            previous = message;
        }
        return line.toString();
    }
}
