package io.claimguard.explorer;

import java.util.ArrayList;
import java.util.List;

/**
 * A stacked column chart laid out for inline SVG: every rectangle, label and tick already placed, so that the template
 * only writes elements and attributes (escaped by Thymeleaf; no script, no inline style: colours come from the
 * stylesheet's {@code .series-N} classes).
 *
 * @param series the names of the stacked parts, bottom first; series {@code i} is drawn with class {@code series-i}
 */
record BarChart(String id, String title, List<String> series, List<Rect> rects, List<Label> labels, List<Tick> ticks,
        int width, int height, boolean empty) {

    static final int WIDTH = 760;
    static final int HEIGHT = 260;
    private static final int LEFT = 48;
    private static final int RIGHT = 8;
    private static final int TOP = 12;
    private static final int BOTTOM = 44;
    static final int SERIES_CLASSES = 8;

    /** One column: its label and one value per series (same order as the chart's series). */
    record Column(String label, List<Long> values) {
    }

    /** A drawn part of a column; {@code tooltip} becomes the rectangle's SVG title. */
    record Rect(double x, double y, double width, double height, String cssClass, String tooltip) {
    }

    record Label(double x, double y, String text) {
    }

    record Tick(double y, String text) {
    }

    static BarChart of(String id, String title, List<String> series, List<Column> columns) {
        long max = 0;
        for (Column column : columns) {
            max = Math.max(max, column.values().stream().mapToLong(Long::longValue).sum());
        }
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double slot = columns.isEmpty() ? plotWidth : plotWidth / columns.size();
        double barWidth = Math.max(1, slot * 0.75);
        long top = niceCeiling(max);
        List<Rect> rects = new ArrayList<>();
        List<Label> labels = new ArrayList<>();
        int labelEvery = Math.max(1, (int) Math.ceil(columns.size() / 12.0));
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
                        column.label() + ": " + series.get(s) + " " + value));
            }
            if (c % labelEvery == 0) {
                labels.add(new Label(round(x + barWidth / 2), HEIGHT - BOTTOM + 16, column.label()));
            }
        }
        List<Tick> ticks = List.of(new Tick(TOP + plotHeight, "0"), new Tick(round(TOP + plotHeight / 2), Long.toString(top / 2)),
                new Tick(TOP, Long.toString(top)));
        return new BarChart(id, title, List.copyOf(series), rects, labels, ticks, WIDTH, HEIGHT, max == 0);
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
