package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BarChartTest {

    @Test
    @DisplayName("Scenario: Plot columns are drawn to scale")
    void toScale() {
        BarChart chart = BarChart.of("c", "title", List.of("kept", "downgraded"), List.of(
                new BarChart.Column("00h", List.of(30L, 10L)), new BarChart.Column("01h", List.of(0L, 0L)),
                new BarChart.Column("02h", List.of(5L, 0L))));

        assertThat(chart.empty()).isFalse();
        assertThat(chart.ticks()).extracting(BarChart.Tick::text).containsExactly("0", "20", "40");
        assertThat(chart.rects()).hasSize(3);
        BarChart.Rect kept = chart.rects().get(0);
        BarChart.Rect downgraded = chart.rects().get(1);
        BarChart.Rect small = chart.rects().get(2);
        assertThat(kept.height() / downgraded.height()).isCloseTo(3.0, within(0.05));
        assertThat(kept.height() / small.height()).isCloseTo(6.0, within(0.1));
        // stacked: the downgraded part sits on the kept part
        assertThat(downgraded.y() + downgraded.height()).isCloseTo(kept.y(), within(0.11));
        assertThat(kept.cssClass()).isEqualTo("series-0");
        assertThat(downgraded.cssClass()).isEqualTo("series-1");
        assertThat(downgraded.tooltip()).isEqualTo("00h: downgraded 10");
        assertThat(chart.labels()).extracting(BarChart.Label::text).containsExactly("00h", "01h", "02h");
        assertThat(chart.totals()).extracting(BarChart.Label::text).containsExactly("40", "5");

        BarChart nothing = BarChart.of("e", "empty", List.of("a"), List.of(new BarChart.Column("x", List.of(0L))));
        assertThat(nothing.empty()).isTrue();
        assertThat(nothing.rects()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Every column of a plot answers with a tooltip, and the current one has its axis label")
    void everyColumnAnswers() {
        List<BarChart.Column> days = new java.util.ArrayList<>();
        for (int d = 1; d <= 30; d++) {
            String day = "2026-11-%02d".formatted(d);
            days.add(new BarChart.Column(day.substring(5), day + (d == 30 ? ", so far" : ""), List.of(d == 7 ? 0L : 18_097L * d, 3L)));
        }
        BarChart chart = BarChart.of("days", "title", List.of("not downgraded", "downgraded"), days);

        // one transparent slot per column, an empty one too, with the whole name, each part and the total
        assertThat(chart.hits()).hasSize(30);
        assertThat(chart.hits().get(6).tooltip()).isEqualTo("2026-11-07: 3 (not downgraded 0, downgraded 3)");
        assertThat(chart.hits().get(29).tooltip())
                .isEqualTo("2026-11-30, so far: 542,913 (not downgraded 542,910, downgraded 3)");
        // too many columns for every axis label: the thinning keeps the last (today's)
        assertThat(chart.labels()).hasSizeLessThan(30).extracting(BarChart.Label::text).contains("11-30");
        assertThat(chart.ticks()).extracting(BarChart.Tick::text).containsExactly("0", "300,000", "600,000");
        // the slots tile the plot: the chart uses its whole width
        BarChart.Hit last = chart.hits().get(29);
        assertThat(last.x() + last.width()).isCloseTo(chart.plotRight(), within(0.2));
        assertThat(chart.hits().get(0).x()).isCloseTo(chart.plotLeft(), within(0.2));
    }

    @Test
    void axisTops() {
        assertThat(List.of(0L, 1L, 2L, 3L, 7L, 11L, 45L, 99L, 101L, 1_000_001L).stream().map(BarChart::niceCeiling))
                .containsExactly(2L, 2L, 2L, 4L, 8L, 20L, 60L, 100L, 200L, 2_000_000L);
    }
}
