package io.claimguard.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The bound on repeated WARN and ERROR lines, on a logging context of the test's own, its intervals ended by the test. */
class RepeatedLinesFilterTest {

    private static final int BOUND = 5;

    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final RepeatedLinesFilter filter = new RepeatedLinesFilter();
    private Logger rejections;
    private Logger retries;

    @BeforeEach
    void boundedContext() {
        lines.setContext(context);
        lines.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(lines);
        filter.setContext(context);
        filter.setMaxRepeats(BOUND);
        filter.setInterval(Duration.ofHours(1)); // the test ends each interval itself
        filter.start();
        context.addTurboFilter(filter);
        rejections = context.getLogger("io.claimguard.intake.FileIntakeRoute");
        retries = context.getLogger("io.claimguard.intake.FileRetryPolicy");
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    @DisplayName("Scenario: Repeated failures are written up to the bound, then counted in one line per interval")
    void repeatedFailuresAreCountedAfterTheBound() {
        IOException failure = new IOException("disk full");
        for (int i = 0; i < 1000; i++) {
            rejections.warn("rejected file input {} (not read): {}", "f-" + i + ".json", "not_json: ...", failure);
        }
        assertThat(lines.list).hasSize(BOUND);
        assertThat(lines.list.get(0).getFormattedMessage()).isEqualTo("rejected file input f-0.json (not read): not_json: ...");
        assertThat(lines.list.get(0).getThrowableProxy()).as("the first with its stack trace").isNotNull();

        filter.endInterval();

        assertThat(lines.list).hasSize(BOUND + 1);
        ILoggingEvent summary = lines.list.get(BOUND);
        assertThat(summary.getLoggerName()).isEqualTo("io.claimguard.intake.FileIntakeRoute");
        assertThat(summary.getLevel()).isEqualTo(ch.qos.logback.classic.Level.WARN);
        assertThat(summary.getFormattedMessage()).isEqualTo("995 more like this in the last 3600 s, not written (at most"
                + " 5 a minute per message, claimguard.logging.max-repeats-per-minute): \"rejected file input {} (not read): {}\"");

        rejections.warn("rejected file input {} (not read): {}", "next.json", "not_json: ...");
        assertThat(lines.list).as("a new interval writes again").hasSize(BOUND + 2);
        filter.endInterval();
        assertThat(lines.list).as("nothing held back, no summary").hasSize(BOUND + 2);
    }

    @Test
    @DisplayName("Each logger and message template has its own bound; INFO lines have none")
    void eachLoggerAndTemplateHasItsOwnBound() {
        for (int i = 0; i < 100; i++) {
            rejections.warn("rejected file input {} (not read): {}", i, "x");
            retries.warn("file input {} failed (attempt {} of {}), taken again in {} ms: {}", i, 1, 10, 100, "x");
            retries.error("file input {} could not be set aside either; tried again every {} ms: {}", i, 100, "x");
            retries.info("info lines are not bounded {}", i);
        }
        assertThat(lines.list).hasSize(3 * BOUND + 100);
        filter.endInterval();
        List<String> summaries = lines.list.subList(3 * BOUND + 100, lines.list.size()).stream()
                .map(event -> event.getLevel() + " " + event.getFormattedMessage().substring(0, 40)).toList();
        assertThat(summaries).containsExactlyInAnyOrder("WARN 95 more like this in the last 3600 s, no",
                "WARN 95 more like this in the last 3600 s, no", "ERROR 95 more like this in the last 3600 s, no");
    }

    @Test
    @DisplayName("Templates beyond the tracked ones share one count")
    void templatesBeyondTheTrackedOnesShareOneCount() {
        for (int i = 0; i < RepeatedLinesFilter.MAX_TEMPLATES + 500; i++) {
            rejections.warn("a message built from input " + i);
        }
        assertThat(lines.list).hasSize(RepeatedLinesFilter.MAX_TEMPLATES + BOUND);
        filter.endInterval();
        assertThat(lines.list.get(lines.list.size() - 1).getFormattedMessage())
                .startsWith("495 more like this").endsWith("\"(further message templates)\"");
    }

    @Test
    void theBoundIsAtLeastOne() {
        assertThatThrownBy(() -> filter.setMaxRepeats(0)).hasMessageContaining("claimguard.logging.max-repeats-per-minute");
    }
}
