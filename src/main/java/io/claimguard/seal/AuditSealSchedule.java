package io.claimguard.seal;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.pipeline.Failures;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the {@link AuditSealer} every {@code claimguard.seal.period} on a thread of its own, apart from the routes:
 * sealing never holds up or fails an input, and an input never waits for its seal. A whole-table round runs at
 * start, every {@code claimguard.seal.full-scan-interval} and after failed rounds; the others look at new rows only.
 *
 * <p>A failed round (the database away, for instance) is simply tried again next period. The first failure of a
 * streak is one WARN line without a stack trace, further ones are DEBUG, and the first success after them an INFO
 * line: an outage of an hour does not write 3,600 warnings.
 */
@Component
public class AuditSealSchedule implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(AuditSealSchedule.class);

    private final AuditSealer sealer;
    private final Duration period;
    private final long fullScanIntervalNanos;
    private ScheduledExecutorService executor;
    // touched only by the sealing thread
    private long nextFullScanNanos;
    private int failedRounds;

    public AuditSealSchedule(DataSource dataSource, ClaimGuardProperties properties) {
        ClaimGuardProperties.Seal seal = properties.seal();
        this.sealer = new AuditSealer(dataSource, seal.batchSize(), seal.fullScanInterval());
        this.period = seal.period();
        this.fullScanIntervalNanos = seal.fullScanInterval().toNanos();
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "audit-sealer");
            thread.setDaemon(true);
            return thread;
        });
        nextFullScanNanos = System.nanoTime();
        executor.scheduleWithFixedDelay(this::sealRound, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
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
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    private void sealRound() {
        boolean wholeTable = failedRounds > 0 || System.nanoTime() - nextFullScanNanos >= 0;
        try {
            int sealed = wholeTable ? sealer.sealAllRows() : sealer.sealNewRows();
            if (wholeTable) {
                nextFullScanNanos = System.nanoTime() + fullScanIntervalNanos;
            }
            if (failedRounds > 0) {
                LOG.info("audit sealing works again after {} failed round(s); sealed {} row(s)", failedRounds, sealed);
                failedRounds = 0;
            }
        } catch (Exception e) {
            // every exception: one that escaped would cancel the schedule
            failedRounds++;
            if (failedRounds == 1) {
                LOG.warn("audit sealing failed, trying again every {} ms (further failures are logged at DEBUG): {}",
                        period.toMillis(), Failures.describe(e));
            } else {
                LOG.debug("audit sealing failed again ({} rounds): {}", failedRounds, Failures.describe(e));
            }
        }
    }
}
