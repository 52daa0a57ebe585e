package io.claimguard.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ends a command that runs until stopped, cleanly, on SIGINT or SIGTERM: the JVM's shutdown hook asks the command to
 * stop, waits while it finishes the message in hand, and, once the command has {@link #completed} its work and its
 * report, ends the process with exit code 0 (the JVM would give 130 or 143). A command that failed instead ends with
 * the signal's code. While the command runs to its end without a signal, {@link #close} takes the hook away again.
 */
final class StopOnSignal implements AutoCloseable {

    /** How long a signal waits for the command to finish the message in hand. */
    private static final long PATIENCE_SECONDS = 30;

    private volatile boolean requested;
    private volatile boolean completed;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook = new Thread(this::stopThenExit, "claimguard-stop");

    StopOnSignal() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    boolean requested() {
        return requested;
    }

    private void stopThenExit() {
        requested = true;
        try {
            if (finished.await(PATIENCE_SECONDS, TimeUnit.SECONDS) && completed) {
                Runtime.getRuntime().halt(ExitCodes.OK);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The command did its work and printed its report: a signal ends the process with 0. */
    void completed() {
        completed = true;
    }

    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it ends the process now that the command has returned
        }
    }
}
