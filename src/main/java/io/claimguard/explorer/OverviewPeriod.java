package io.claimguard.explorer;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;

/**
 * The overview's period, chosen with {@code ?period=} and kept in the URL: the last 24 hours in hours, or the last 7
 * or 30 UTC days (today included) in days.
 */
enum OverviewPeriod {

    DAY("day", "last 24 hours", 24, ChronoUnit.HOURS),
    WEEK("week", "last 7 days", 7, ChronoUnit.DAYS),
    MONTH("30d", "last 30 days", 30, ChronoUnit.DAYS);

    private final String parameter;
    private final String words;
    private final int columns;
    private final ChronoUnit unit;

    OverviewPeriod(String parameter, String words, int columns, ChronoUnit unit) {
        this.parameter = parameter;
        this.words = words;
        this.columns = columns;
        this.unit = unit;
    }

    /** The period of a {@code period} parameter; none when it names no period. A missing one is the last 24 hours. */
    static Optional<OverviewPeriod> of(String parameter) {
        if (parameter == null || parameter.isBlank()) {
            return Optional.of(DAY);
        }
        return Arrays.stream(values()).filter(period -> period.parameter.equals(parameter.strip())).findFirst();
    }

    public String parameter() {
        return parameter;
    }

    public String words() {
        return words;
    }

    int columns() {
        return columns;
    }

    ChronoUnit unit() {
        return unit;
    }

    /** The start of the first column, for a clock reading {@code now} (UTC). */
    LocalDateTime firstColumn(LocalDateTime now) {
        return now.truncatedTo(unit).minus(columns - 1, unit);
    }
}
