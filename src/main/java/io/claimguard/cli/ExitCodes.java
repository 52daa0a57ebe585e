package io.claimguard.cli;

/** The exit statuses of every command, documented in {@code claimguard --help} and docs/investigating.md. */
public final class ExitCodes {

    /** Done; for checks: nothing wrong found. */
    public static final int OK = 0;
    /** Done, and something wrong was found (a broken chain, an input rejected again). */
    public static final int FINDINGS = 1;
    /** Wrong arguments: picocli's own status for usage errors. */
    public static final int USAGE = 2;
    /** Could not be done: the database or broker unreachable, the broker refusing, a file unreadable. */
    public static final int UNAVAILABLE = 3;

    private ExitCodes() {
    }
}
