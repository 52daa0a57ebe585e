package io.claimguard.rollup;

import io.claimguard.seal.SealRoundListener;
import io.claimguard.support.FailureStreak;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Merges the rollup deltas of the last {@link #WINDOW} into one row per group every
 * {@code claimguard.rollups.compaction-interval}, through {@code claimguard.compact_rollups} (V17), which runs as the
 * migration's owner: the runtime role may call it but holds no privilege on the rollup tables.
 *
 * <p>It runs after a sealing round, on the sealer's thread: one background thread for the database's bookkeeping,
 * never an input's thread. The first compaction after a start covers all time, for the deltas a bulk load or a
 * restore spread over old days (each of its statements adds a delta per group and day it touches); the following ones
 * cover two days, the hours and days that still take deltas. A delta for an older hour written while the service runs
 * (an insert that stayed open that long) stays a row of its own until the next start, which changes no answer.
 */
@Component
public class RollupCompactor implements SealRoundListener {

    static final Duration WINDOW = Duration.ofDays(2);

    private static final Logger LOG = LoggerFactory.getLogger(RollupCompactor.class);
    /** A null {@code since} is all time. */
    private static final String COMPACT = "SELECT claimguard.compact_rollups(coalesce(?, '-infinity'::timestamp))";

    private final DataSource dataSource;
    private final long intervalNanos;
    private final FailureStreak failures;
    // touched only by the sealing thread
    private long nextCompactionNanos = System.nanoTime();
    private boolean allTimeCompacted;

    public RollupCompactor(DataSource dataSource, RollupProperties properties) {
        this.dataSource = dataSource;
        this.intervalNanos = properties.compactionInterval().toNanos();
        this.failures = new FailureStreak(LOG, "rollup compaction",
                "every " + properties.compactionInterval().toSeconds() + " s");
    }

    @Override
    public void afterSealRound() {
        if (System.nanoTime() - nextCompactionNanos < 0) {
            return;
        }
        try {
            long merged = allTimeCompacted ? compact(lastTwoDays()) : compact(null);
            allTimeCompacted = true;
            failures.succeeded("merged " + merged + " rollup row(s)");
        } catch (SQLException | RuntimeException e) {
            failures.failed(e);
        }
        nextCompactionNanos = System.nanoTime() + intervalNanos;
    }

    @Override
    public void sealerStopping() {
        // nothing is lost by skipping a compaction: the next start's covers all time
    }

    private static LocalDateTime lastTwoDays() {
        return LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS).minus(WINDOW);
    }

    /** Compacts from {@code since} (UTC, null for all time); returns how many rows fewer the rollups hold. */
    private long compact(LocalDateTime since) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(COMPACT)) {
            statement.setObject(1, since);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
