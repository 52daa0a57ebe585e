package io.claimguard.explorer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A stacked column chart laid out for inline SVG: every rectangle, label and tick already placed, so that the template
 * only writes elements and attributes (escaped by Thymeleaf; no script, no inline style: colours come from the
 * stylesheet's {@code .series-N} classes).
 *
 * <p>Every column answers on its own: a transparent rectangle as tall as the plot carries the column's SVG title (its
 * whole name, each series' count and the total), so that a pointer anywhere over the column, an empty one too, shows
 * it; the total is written above the column when there is room; the last column (the current hour or day) always has
 * its axis label, thinning drops labels from the left.
 *
 * @param series the names of the stacked parts, bottom first; series {@code i} is drawn with class {@code series-i}
 */
record BarChart(String id, String title, List<String> series, List<Rect> rects, List<Hit> hits, List<Label> labels,
        List<Label> totals, List<Tick> ticks, int width, int height, boolean empty) {

    /** Wide enough to fill the overview's panel at 1,280 px at about 1:1, so that the text keeps its size. */
    static final int WIDTH = 1160;
    static final int HEIGHT = 280;
    private static final int LEFT = 64;
    private static final int RIGHT = 8;
    private static final int TOP = 20;
    private static final int BOTTOM = 36;
    /** Room an axis label or a total needs, in the chart's units (13 px text). */
    private static final double TEXT_ROOM = 44;
    static final int SERIES_CLASSES = 8;
    private static final double MAX_BAR = 120;

    /**
     * One column: its axis label, the name its tooltip gives (the whole hour or day, "so far" for the current one) and
     * one value per series (same order as the chart's series).
     */
    record Column(String label, String name, List<Long> values) {

        Column(String label, List<Long> values) {
            this(label, label, values);
        }

        long total() {
            return values.stream().mapToLong(Long::longValue).sum();
        }
    }

    /** A drawn part of a column; {@code tooltip} becomes the rectangle's SVG title. */
    record Rect(double x, double y, double width, double height, String cssClass, String tooltip) {
    }

    /** A column's whole slot, transparent, carrying the column's tooltip. */
    record Hit(double x, double y, double width, double height, String tooltip) {
    }

    record Label(double x, double y, String text) {
    }

    record Tick(double y, String text) {
    }

    static BarChart of(String id, String title, List<String> series, List<Column> columns) {
        long max = 0;
        for (Column column : columns) {
            max = Math.max(max, column.total());
        }
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double slot = columns.isEmpty() ? plotWidth : plotWidth / columns.size();
        // a few wide slots (labels) get bars of a readable width, not slabs
        double barWidth = Math.max(1, Math.min(slot * 0.75, MAX_BAR));
        long top = niceCeiling(max);
        List<Rect> rects = new ArrayList<>();
        List<Hit> hits = new ArrayList<>();
        List<Label> labels = new ArrayList<>();
        List<Label> totals = new ArrayList<>();
        int labelEvery = Math.max(1, (int) Math.ceil(TEXT_ROOM / slot));
        boolean roomForTotals = slot >= TEXT_ROOM;
        for (int c = 0; c < columns.size(); c++) {
            Column column = columns.get(c);
            double x = LEFT + c * slot + (slot - barWidth) / 2;
            double base = TOP + plotHeight;
            for (int s = 0; s < column.values().size(); s++) {
                long value = column.values().get(s);
                if (value <= 0) {
                    continue;
                }
                double h = plotHeight * value / top;
                base -= h;
                rects.add(new Rect(round(x), round(base), round(barWidth), round(h), "series-" + (s % SERIES_CLASSES),
                        column.name() + ": " + series.get(s) + " " + count(value)));
            }
            hits.add(new Hit(round(LEFT + c * slot), TOP, round(slot), plotHeight, tooltip(column, series)));
            if ((columns.size() - 1 - c) % labelEvery == 0) {
                labels.add(new Label(round(x + barWidth / 2), HEIGHT - BOTTOM + 18, column.label()));
            }
            if (roomForTotals && column.total() > 0) {
                totals.add(new Label(round(x + barWidth / 2), round(base - 5), count(column.total())));
            }
        }
        List<Tick> ticks = List.of(new Tick(TOP + plotHeight, "0"), new Tick(round(TOP + plotHeight / 2), count(top / 2)),
                new Tick(TOP, count(top)));
        return new BarChart(id, title, List.copyOf(series), rects, hits, labels, totals, ticks, WIDTH, HEIGHT, max == 0);
    }

    /** "06:00 to 07:00 UTC: 412 (not downgraded 400, downgraded 12)". */
    private static String tooltip(Column column, List<String> series) {
        StringBuilder tooltip = new StringBuilder(column.name()).append(": ").append(count(column.total()));
        if (series.size() > 1) {
            tooltip.append(" (");
            for (int s = 0; s < series.size(); s++) {
                tooltip.append(s == 0 ? "" : ", ").append(series.get(s)).append(' ').append(count(column.values().get(s)));
            }
            tooltip.append(')');
        }
        return tooltip.toString();
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /** The axis' top: the maximum rounded up to 1, 2, 4, 6, 8 or 10 times a power of ten (at least 2, so that its half is whole). */
    static long niceCeiling(long max) {
        if (max <= 2) {
            return 2;
        }
        long power = 1;
        while (power * 10 < max) {
            power *= 10;
        }
        for (long step : new long[] {1, 2, 4, 6, 8, 10}) {
            if (step * power >= max) {
                return step * power;
            }
        }
        return 10 * power;
    }

    public int plotLeft() {
        return LEFT;
    }

    public int plotRight() {
        return WIDTH - RIGHT;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
