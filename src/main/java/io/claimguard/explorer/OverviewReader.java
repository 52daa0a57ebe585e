package io.claimguard.explorer;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
 * The overview's plots, all from the rollups that triggers keep as audits are written (V13), so that drawing them
 * costs the same after a year of audits as after a day: inputs and downgrades per hour of the last day (and the
 * reasons of the downgrades) from {@code audit_rollup} and {@code guard_reason_rollup}; the label distribution from
 * the analyst view {@code verification_labels_by_claim_type}; the V1/V2 share per day from
 * {@code verifier_version_share_daily} (both views sum rollups). Hours and days are UTC.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class OverviewReader {

    static final int HOURS = 24;
    static final int DAYS = 14;
    /** Reasons drawn on their own; the rest are summed as "other". */
    private static final int TOP_REASONS = 6;

    // the queries are package-visible for OverviewRollupsIT, which compares them with the scans they replaced
    static final String PER_HOUR = """
            SELECT received_hour, coalesce(sum(input_count) FILTER (WHERE NOT downgraded), 0),
                   coalesce(sum(input_count) FILTER (WHERE downgraded), 0)
            FROM claimguard.audit_rollup
            WHERE received_hour >= ?
            GROUP BY 1
            """;

    static final String REASONS_PER_HOUR = """
            SELECT received_hour, reason_code, sum(input_count)
            FROM claimguard.guard_reason_rollup
            WHERE received_hour >= ? AND downgraded
            GROUP BY 1, 2
            """;

    static final String LABELS = """
            SELECT coalesce(verification, '(none)'), legacy_verification, sum(claim_count)::bigint
            FROM claimguard.verification_labels_by_claim_type
            GROUP BY 1, 2
            ORDER BY 1, 2
            """;

    static final String VERSION_SHARE = """
            SELECT day, v2_count, v1_count, none_count
            FROM claimguard.verifier_version_share_daily
            WHERE day >= ?
            """;

    static final List<String> LEGACY_LABELS = List.of("direct_evidence", "indirect_support", "no_evidence", "contradicted");

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

    List<BarChart> charts() {
        LocalDateTime firstHour = LocalDateTime.ofInstant(Instant.now(clock), ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS)
                .minusHours(HOURS - 1);
        return List.of(inputsPerHour(firstHour), downgradesPerHour(firstHour), labels(), versionShare());
    }

    private BarChart inputsPerHour(LocalDateTime firstHour) {
        Map<LocalDateTime, List<Long>> byHour = new TreeMap<>();
        sql.query(PER_HOUR, rs -> {
            byHour.put(rs.getObject(1, LocalDateTime.class), List.of(rs.getLong(2), rs.getLong(3)));
        }, firstHour);
        List<BarChart.Column> columns = new ArrayList<>();
        for (int h = 0; h < HOURS; h++) {
            LocalDateTime hour = firstHour.plusHours(h);
            columns.add(new BarChart.Column(hourLabel(hour), byHour.getOrDefault(hour, List.of(0L, 0L))));
        }
        return BarChart.of("inputs-per-hour", "Inputs per hour, last 24 hours (UTC)", List.of("not downgraded", "downgraded"),
                columns);
    }

    private BarChart downgradesPerHour(LocalDateTime firstHour) {
        Map<LocalDateTime, Map<String, Long>> byHour = new TreeMap<>();
        Map<String, Long> totals = new LinkedHashMap<>();
        sql.query(REASONS_PER_HOUR, rs -> {
            String code = rs.getString(2);
            long count = rs.getLong(3);
            byHour.computeIfAbsent(rs.getObject(1, LocalDateTime.class), hour -> new TreeMap<>()).merge(code, count, Long::sum);
            totals.merge(code, count, Long::sum);
        }, firstHour);
        List<String> top = totals.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP_REASONS).map(Map.Entry::getKey).toList();
        List<String> series = new ArrayList<>(top);
        boolean other = totals.size() > top.size();
        if (other) {
            series.add("other");
        }
        List<BarChart.Column> columns = new ArrayList<>();
        for (int h = 0; h < HOURS; h++) {
            LocalDateTime hour = firstHour.plusHours(h);
            Map<String, Long> counts = byHour.getOrDefault(hour, Map.of());
            List<Long> values = new ArrayList<>();
            for (String code : top) {
                values.add(counts.getOrDefault(code, 0L));
            }
            if (other) {
                values.add(counts.entrySet().stream().filter(e -> !top.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum());
            }
            columns.add(new BarChart.Column(hourLabel(hour), values));
        }
        return BarChart.of("downgrades-per-hour", "Downgrades per hour by guard reason, last 24 hours (UTC; an input "
                + "downgraded for two reasons counts under both)", series, columns);
    }

    private BarChart labels() {
        Map<String, long[]> byLabel = new LinkedHashMap<>();
        sql.query(LABELS, rs -> {
            long[] counts = byLabel.computeIfAbsent(rs.getString(1), label -> new long[LEGACY_LABELS.size()]);
            int legacy = LEGACY_LABELS.indexOf(rs.getString(2));
            counts[legacy < 0 ? 0 : legacy] += rs.getLong(3);
        });
        List<BarChart.Column> columns = new ArrayList<>();
        byLabel.forEach((label, counts) -> {
            List<Long> values = new ArrayList<>();
            for (long count : counts) {
                values.add(count);
            }
            columns.add(new BarChart.Column(label, values));
        });
        return BarChart.of("labels", "Claim checks by verification label (V2, as received), stacked by the legacy label "
                + "they were projected to", LEGACY_LABELS, columns);
    }

    private BarChart versionShare() {
        LocalDate firstDay = LocalDate.ofInstant(Instant.now(clock), ZoneOffset.UTC).minusDays(DAYS - 1);
        Map<LocalDate, List<Long>> byDay = new TreeMap<>();
        sql.query(VERSION_SHARE, rs -> {
            byDay.put(rs.getObject(1, LocalDate.class), List.of(rs.getLong(2), rs.getLong(3), rs.getLong(4)));
        }, firstDay);
        List<BarChart.Column> columns = new ArrayList<>();
        for (int d = 0; d < DAYS; d++) {
            LocalDate day = firstDay.plusDays(d);
            columns.add(new BarChart.Column(day.toString().substring(5), byDay.getOrDefault(day, List.of(0L, 0L, 0L))));
        }
        return BarChart.of("version-share", "Inputs per day by verifier version, last 14 days (UTC): V2 claim_checks, "
                + "V1 facts_checked only, neither", List.of("V2", "V1", "none"), columns);
    }

    private static String hourLabel(LocalDateTime hour) {
        return "%02dh".formatted(hour.getHour());
    }
}
