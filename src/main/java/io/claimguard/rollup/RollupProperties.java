package io.claimguard.rollup;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The rollups ({@code claimguard.rollups.*}).
 *
 * @param compactionInterval how often the last two days' rollup deltas are merged into one row per group
 */
@ConfigurationProperties("claimguard.rollups")
public record RollupProperties(Duration compactionInterval) {

    public RollupProperties {
        if (compactionInterval == null || compactionInterval.isNegative() || compactionInterval.isZero()) {
            throw new IllegalArgumentException(
                    "claimguard.rollups.compaction-interval must be a positive duration such as 5m, not " + compactionInterval);
        }
    }
}
