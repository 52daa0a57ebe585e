package io.claimguard.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ends a command that runs until stopped, cleanly, on SIGINT or SIGTERM: the JVM's shutdown hook asks the command to
 * stop, waits while it finishes the message in hand, and then ends the process with exit code 0 (the JVM would give
 * 130 or 143). While the command runs normally to its end, {@link #close} takes the hook away again.
 */
final class StopOnSignal implements AutoCloseable {

    /** How long a signal waits for the command to finish the message in hand. */
    private static final long PATIENCE_SECONDS = 30;

    private volatile boolean requested;
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
            if (finished.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                Runtime.getRuntime().halt(ExitCodes.OK);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it ends the process now that the command has finished
        }
    }
}
