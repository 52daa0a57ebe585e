package io.claimguard.seal;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.support.FailureStreak;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the {@link AuditSealer} every {@code claimguard.seal.period} on a thread of its own, apart from the routes:
 * sealing never holds up or fails an input, and an input never waits for its seal. A whole-table round runs at
 * start, every {@code claimguard.seal.full-scan-interval} and after failed rounds; the others look at new rows only.
 *
 * <p>A failed round (the database away, for instance) is simply tried again next period, logged as a
 * {@link FailureStreak}. After every round, and once when stopping, the {@link SealRoundListener}s run on the same
 * thread (signed checkpoints of the head).
 */
@Component
public class AuditSealSchedule implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(AuditSealSchedule.class);

    private final AuditSealer sealer;
    private final Duration period;
    private final long fullScanIntervalNanos;
    private final ObjectProvider<SealRoundListener> listeners;
    private ScheduledExecutorService executor;
    // touched only by the sealing thread
    private long nextFullScanNanos;
    private final FailureStreak failures;

    public AuditSealSchedule(DataSource dataSource, ClaimGuardProperties properties,
            ObjectProvider<SealRoundListener> listeners) {
        ClaimGuardProperties.Seal seal = properties.seal();
        this.sealer = new AuditSealer(dataSource, seal.batchSize(), seal.fullScanInterval());
        this.period = seal.period();
        this.fullScanIntervalNanos = seal.fullScanInterval().toNanos();
        this.listeners = listeners;
        this.failures = new FailureStreak(LOG, "audit sealing", "every " + period.toMillis() + " ms");
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "audit-sealer");
            thread.setDaemon(true);
            return thread;
        });
        nextFullScanNanos = System.nanoTime();
        executor.scheduleWithFixedDelay(() -> {
            sealRound();
            notifyListeners(SealRoundListener::afterSealRound);
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        executor.shutdown();
        try {
            // a round in progress is one short transaction: let it commit rather than cut its connection
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        executor = null;
        notifyListeners(SealRoundListener::sealerStopping);
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    private void sealRound() {
        boolean wholeTable = failures.failing() || System.nanoTime() - nextFullScanNanos >= 0;
        try {
            int sealed = wholeTable ? sealer.sealAllRows() : sealer.sealNewRows();
            if (wholeTable) {
                nextFullScanNanos = System.nanoTime() + fullScanIntervalNanos;
            }
            failures.succeeded("sealed " + sealed + " row(s)");
        } catch (Exception e) {
            // every exception: one that escaped would cancel the schedule
            failures.failed(e);
        }
    }

    private void notifyListeners(Consumer<SealRoundListener> step) {
        listeners.orderedStream().forEach(listener -> {
            try {
                step.accept(listener);
            } catch (RuntimeException e) {
                // an exception that escaped would cancel the schedule, and sealing with it
                LOG.error("{} failed after a sealing round", listener.getClass().getSimpleName(), e);
            }
        });
    }
}
