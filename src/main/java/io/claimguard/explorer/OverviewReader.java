package io.claimguard.explorer;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The overview's plots for a period, all from the rollups that triggers keep as audits are written, so that drawing
 * them costs the same after a year of audits as after a day: inputs, downgrades and verifier versions per hour or day
 * from {@code audit_rollup} and {@code guard_reason_rollup} (V13); inputs and claim checks per label from
 * {@code claim_label_rollup} (V20). Each query reads one range of its rollup's hour index (the period's first hour on);
 * hours are summed into days here. Hours and days are UTC.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class OverviewReader {

    /** Reasons drawn on their own; the rest are summed as "other". */
    private static final int TOP_REASONS = 6;

    // the queries are package-visible for OverviewRollupsIT, which compares them with the scans of the audit rows, and
    // for ExplorerQueryPlanIT, which shows their plans
    static final String INPUTS = """
            SELECT received_hour, downgraded, projection_mode, sum(input_count)
            FROM claimguard.audit_rollup
            WHERE received_hour >= ?
            GROUP BY 1, 2, 3
            """;

    static final String REASONS = """
            SELECT received_hour, reason_code, sum(input_count)
            FROM claimguard.guard_reason_rollup
            WHERE received_hour >= ? AND downgraded
            GROUP BY 1, 2
            """;

    static final String LABELS = """
            SELECT coalesce(verification, '(none)'), legacy_verification, sum(claim_count)::bigint, sum(input_count)::bigint
            FROM claimguard.claim_label_rollup
            WHERE received_hour >= ?
            GROUP BY 1, 2
            ORDER BY 1, 2
            """;

    static final List<String> QUERIES = List.of(INPUTS, REASONS, LABELS);

    static final List<String> LEGACY_LABELS = List.of("direct_evidence", "indirect_support", "no_evidence", "contradicted");

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd");

    /** What the page shows: the period, its totals and its charts. */
    record Overview(OverviewPeriod period, String since, long inputs, long downgraded, long claimChecks,
            List<BarChart> charts) {

        public String inputsText() {
            return BarChart.count(inputs);
        }

        public String downgradedText() {
            return BarChart.count(downgraded);
        }

        public String claimChecksText() {
            return BarChart.count(claimChecks);
        }
    }

    private final JdbcTemplate sql;
    private final Clock clock;

    @Autowired
    OverviewReader(ExplorerDatabase database) {
        this(database.sql(), Clock.systemUTC());
    }

    OverviewReader(JdbcTemplate sql, Clock clock) {
        this.sql = sql;
        this.clock = clock;
    }

    Overview overview(OverviewPeriod period) {
        LocalDateTime first = period.firstColumn(LocalDateTime.now(clock.withZone(ZoneOffset.UTC)));
        Buckets buckets = new Buckets(period, first);
        // per column: not downgraded, downgraded; V2, V1, neither
        Map<Integer, long[]> inputs = new TreeMap<>();
        sql.query(INPUTS, rs -> {
            int column = buckets.column(rs.getObject(1, LocalDateTime.class));
            long[] counts = inputs.computeIfAbsent(column, c -> new long[5]);
            long count = rs.getLong(4);
            counts[rs.getBoolean(2) ? 1 : 0] += count;
            String mode = rs.getString(3);
            counts["legacy".equals(mode) ? 3 : "none".equals(mode) ? 4 : 2] += count;
        }, first);
        long inputTotal = inputs.values().stream().mapToLong(c -> c[0] + c[1]).sum();
        long downgradedTotal = inputs.values().stream().mapToLong(c -> c[1]).sum();

        List<BarChart.Column> perColumn = new ArrayList<>();
        List<BarChart.Column> versions = new ArrayList<>();
        for (int c = 0; c < period.columns(); c++) {
            long[] counts = inputs.getOrDefault(c, new long[5]);
            perColumn.add(buckets.column(c, List.of(counts[0], counts[1])));
            versions.add(buckets.column(c, List.of(counts[2], counts[3], counts[4])));
        }
        String per = period.unit() == ChronoUnit.HOURS ? "per hour" : "per day";
        String span = ", " + period.words() + " (UTC)";
        List<BarChart> charts = new ArrayList<>();
        charts.add(BarChart.of("inputs", "Inputs " + per + span + ", by whether the guard downgraded them",
                List.of("not downgraded", "downgraded"), perColumn));
        charts.add(downgrades(buckets, first, "Downgraded inputs " + per + " by guard reason" + span
                + " (an input downgraded for two reasons counts under both)"));
        long claimChecks = labels(first, charts, span);
        charts.add(BarChart.of("version-share", "Inputs " + per + " by verifier version" + span
                + ": V2 claim_checks, V1 facts_checked only, neither", List.of("V2", "V1", "none"), versions));
        return new Overview(period, first.toLocalDate().format(DAY) + (period.unit() == ChronoUnit.HOURS
                ? " %02d:00".formatted(first.getHour()) : ""), inputTotal, downgradedTotal, claimChecks, charts);
    }

    private BarChart downgrades(Buckets buckets, LocalDateTime first, String title) {
        Map<Integer, Map<String, Long>> byColumn = new TreeMap<>();
        Map<String, Long> totals = new LinkedHashMap<>();
        sql.query(REASONS, rs -> {
            String code = rs.getString(2);
            long count = rs.getLong(3);
            byColumn.computeIfAbsent(buckets.column(rs.getObject(1, LocalDateTime.class)), c -> new TreeMap<>())
                    .merge(code, count, Long::sum);
            totals.merge(code, count, Long::sum);
        }, first);
        List<String> top = totals.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP_REASONS).map(Map.Entry::getKey).toList();
        List<String> series = new ArrayList<>(top);
        boolean other = totals.size() > top.size();
        if (other) {
            series.add("other");
        }
        List<BarChart.Column> columns = new ArrayList<>();
        for (int c = 0; c < buckets.period.columns(); c++) {
            Map<String, Long> counts = byColumn.getOrDefault(c, Map.of());
            List<Long> values = new ArrayList<>();
            for (String code : top) {
                values.add(counts.getOrDefault(code, 0L));
            }
            if (other) {
                values.add(counts.entrySet().stream().filter(e -> !top.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum());
            }
            columns.add(buckets.column(c, values));
        }
        return BarChart.of("downgrades", title, series, columns);
    }

    /** The two label charts, inputs then claim checks; answers the period's claim checks. */
    private long labels(LocalDateTime first, List<BarChart> charts, String span) {
        Map<String, long[]> claims = new LinkedHashMap<>();
        Map<String, long[]> inputs = new LinkedHashMap<>();
        long[] total = {0};
        sql.query(LABELS, rs -> {
            String label = rs.getString(1);
            int legacy = Math.max(0, LEGACY_LABELS.indexOf(rs.getString(2)));
            claims.computeIfAbsent(label, l -> new long[LEGACY_LABELS.size()])[legacy] += rs.getLong(3);
            inputs.computeIfAbsent(label, l -> new long[LEGACY_LABELS.size()])[legacy] += rs.getLong(4);
            total[0] += rs.getLong(3);
        }, first);
        charts.add(BarChart.of("label-inputs", "Inputs by verification label (V2, as received)" + span + ", stacked by the "
                + "legacy label it was projected to: an input counts once under each pair its claim checks carry",
                LEGACY_LABELS, labelColumns(inputs, "inputs")));
        charts.add(BarChart.of("label-claims", "Claim checks by verification label (V2, as received)" + span
                + ", stacked by the legacy label they were projected to", LEGACY_LABELS, labelColumns(claims, "claim checks")));
        return total[0];
    }

    private static List<BarChart.Column> labelColumns(Map<String, long[]> byLabel, String what) {
        List<BarChart.Column> columns = new ArrayList<>();
        byLabel.forEach((label, counts) -> {
            List<Long> values = new ArrayList<>();
            for (long count : counts) {
                values.add(count);
            }
            columns.add(new BarChart.Column(label, what + " labelled " + label, values));
        });
        return columns;
    }

    /** The period's columns: which one an hour falls in, and each one's axis label and tooltip name. */
    private record Buckets(OverviewPeriod period, LocalDateTime first) {

        int column(LocalDateTime hour) {
            return (int) period.unit().between(first, hour.truncatedTo(period.unit()));
        }

        BarChart.Column column(int c, List<Long> values) {
            LocalDateTime start = first.plus(c, period.unit());
            boolean current = c == period.columns() - 1;
            String label;
            String name;
            if (period.unit() == ChronoUnit.HOURS) {
                label = "%02dh".formatted(start.getHour());
                name = "%s %02d:00 to %02d:00 UTC".formatted(start.toLocalDate().format(DAY), start.getHour(),
                        start.plusHours(1).getHour());
            } else {
                label = start.toLocalDate().format(DAY).substring(5);
                name = start.toLocalDate().format(DAY) + " (UTC)";
            }
            return new BarChart.Column(label, current ? name + ", so far" : name, values);
        }
    }
}
