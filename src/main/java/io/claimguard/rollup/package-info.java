/**
 * The rollups the overview and the daily analyst views sum: kept by triggers in the database as audits are written
 * (V13), and compacted here, on the sealer's thread, so that each group holds about one row per hour or day (V17).
 * May use {@code seal} (the round it follows) and {@code support}.
 */
package io.claimguard.rollup;
