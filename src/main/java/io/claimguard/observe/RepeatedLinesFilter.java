package io.claimguard.observe;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.claimguard.support.LogValue;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * Bounds the WARN and ERROR lines of every logger (ClaimGuard's, Camel's, the Kafka and Artemis clients'): per logger and
 * message template, the first {@code maxRepeats} lines of an interval are written as logged (the first with its stack
 * trace), the further ones are counted, and at the end of the interval one line says how many were not written. So no
 * input and no outage writes more than {@code maxRepeats + 1} lines per template and interval, whatever its rate.
 *
 * <p>A logback {@link TurboFilter}, because it sees each event before a layout is built, for every appender and
 * format alike, and can drop it for the cost of a map lookup. Logback's own {@code DuplicateMessageFilter} drops
 * repeats for good and says nothing of them; this one counts them and starts again each interval.
 */
public final class RepeatedLinesFilter extends TurboFilter {

    /** The name it is installed under, so that it is installed once per logging context. */
    public static final String NAME = "claimguard-repeated-lines";
    /** Marks the summary lines, which are never counted themselves. */
    static final Marker SUMMARY = MarkerFactory.getMarker("CLAIMGUARD_REPEATS_SUMMARY");
    /** Templates tracked in one interval; lines of further templates share one count (templates are in code, few). */
    static final int MAX_TEMPLATES = 1000;
    private static final String OTHER_TEMPLATES = "(further message templates)";

    private final Map<Template, Count> counts = new ConcurrentHashMap<>();
    private volatile int maxRepeats = 10;
    private volatile Duration interval = Duration.ofMinutes(1);
    private ScheduledExecutorService summaries;

    private record Template(String logger, String format) {
    }

    private static final class Count {
        final Logger logger;
        Level level;
        int written;
        int notWritten;

        Count(Logger logger, Level level) {
            this.logger = logger;
            this.level = level;
        }
    }

    public RepeatedLinesFilter() {
        setName(NAME);
    }

    /** Lines written per logger and message template in one interval before further ones are only counted. */
    public void setMaxRepeats(int maxRepeats) {
        if (maxRepeats < 1) {
            throw new IllegalArgumentException("claimguard.logging.max-repeats-per-minute must be at least 1, got " + maxRepeats);
        }
        this.maxRepeats = maxRepeats;
    }

    public int maxRepeats() {
        return maxRepeats;
    }

    void setInterval(Duration interval) {
        this.interval = interval;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (!isStarted() || level == null || !level.isGreaterOrEqual(Level.WARN) || marker == SUMMARY || format == null
                || !logger.isEnabledFor(level)) {
            return FilterReply.NEUTRAL;
        }
        Template template = new Template(logger.getName(), format);
        if (!counts.containsKey(template) && counts.size() >= MAX_TEMPLATES) {
            template = new Template(logger.getName(), OTHER_TEMPLATES);
        }
        Count count = counts.computeIfAbsent(template, key -> new Count(logger, level));
        synchronized (count) {
            if (count.written < maxRepeats) {
                count.written++;
                return FilterReply.NEUTRAL;
            }
            count.notWritten++;
            if (level.isGreaterOrEqual(count.level)) {
                count.level = level;
            }
            return FilterReply.DENY;
        }
    }

    /**
     * Ends the interval: one line per template with lines not written ({@code N more like this in the last 60 s ...}),
     * at the level of the worst of them, on their logger; every count starts again.
     */
    void endInterval() {
        long seconds = interval.toSeconds();
        for (Map.Entry<Template, Count> entry : counts.entrySet()) {
            Count count = entry.getValue();
            int notWritten;
            Level level;
            synchronized (count) {
                notWritten = count.notWritten;
                level = count.level;
                if (count.written == 0) {
                    // idle for a whole interval: forgotten, so that the map holds the templates of the last minute only
                    counts.remove(entry.getKey(), count);
                }
                count.written = 0;
                count.notWritten = 0;
            }
            if (notWritten > 0) {
                String line = "{} more like this in the last {} s, not written (at most {} a minute per message,"
                        + " claimguard.logging.max-repeats-per-minute): {}";
                Object[] arguments = {notWritten, seconds, maxRepeats, LogValue.of(entry.getKey().format())};
                if (level == Level.ERROR) {
                    count.logger.error(SUMMARY, line, arguments);
                } else {
                    count.logger.warn(SUMMARY, line, arguments);
                }
            }
        }
    }

    @Override
    public void start() {
        summaries = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "claimguard-log-repeats");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        summaries.scheduleAtFixedRate(this::endInterval, millis, millis, TimeUnit.MILLISECONDS);
        super.start();
    }

    @Override
    public void stop() {
        super.stop();
        if (summaries != null) {
            summaries.shutdownNow();
        }
    }
}
