package io.claimguard.explorer;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * What a list asks for: a time range on {@code received_at} (from inclusive, to exclusive), the effective verdict,
 * downgraded or not, guard reason codes (any of them), finding codes (any of them), with or without findings, the
 * source, words to search for in claim text, rationale and tool names ({@link Search}); every part optional. Lists run newest first and page by keyset: {@code before} is the (received_at, id) of
 * the last row of the page before.
 */
record AuditFilter(Instant from, Instant to, String verdict, Boolean downgraded, List<String> reasons,
        List<String> findings, Boolean hasFindings, String source, Keyset before, String text) {

    /** A filter without a search term. */
    AuditFilter(Instant from, Instant to, String verdict, Boolean downgraded, List<String> reasons, List<String> findings,
            Boolean hasFindings, String source, Keyset before) {
        this(from, to, verdict, downgraded, reasons, findings, hasFindings, source, before, null);
    }

    /** Any of these findings, or findings at all, or none: the finding index (code, audit_id) or the primary key serve it. */
    private static final String FINDING_OF = "id IN (SELECT f.audit_id FROM claimguard.finding AS f"
            + " WHERE f.code = ANY (CAST(? AS text[])))";
    private static final String ANY_FINDING = "EXISTS (SELECT 1 FROM claimguard.finding AS f"
            + " WHERE f.audit_id = verification_audit.id)";

    /** The same filter from another start. */
    AuditFilter from(Instant newFrom) {
        return new AuditFilter(newFrom, to, verdict, downgraded, reasons, findings, hasFindings, source, before, text);
    }

    AuditFilter {
        reasons = reasons == null || reasons.isEmpty() ? null : List.copyOf(reasons);
        findings = findings == null || findings.isEmpty() ? null : List.copyOf(findings);
    }

    /** A position in a list ordered by (received_at, id), newest first. */
    record Keyset(Instant receivedAt, long id) {
    }

    /** The WHERE clause (always non-empty) and its parameters, in order. Only parameters carry values. */
    record Where(String sql, List<Object> parameters) {
    }

    Where where() {
        Conditions where = new Conditions()
                .when(from, "received_at >= ?", from == null ? null : utc(from))
                .when(to, "received_at < ?", to == null ? null : utc(to))
                .when(verdict, "effective_verdict = ?", verdict)
                .when(downgraded, "downgraded = ?", downgraded)
                // the GIN index on guard_reasons serves overlap
                .when(reasons, "guard_reasons && CAST(? AS text[])", reasons == null ? null : array(reasons))
                .when(findings, FINDING_OF, findings == null ? null : array(findings))
                .when(hasFindings, Boolean.TRUE.equals(hasFindings) ? ANY_FINDING : "NOT " + ANY_FINDING)
                .when(source, "source = ?", source)
                .when(text, Search.CONDITION, text, text)
                .before(before);
        return where.build();
    }

    /** AND-ed conditions, each with its own parameters; values only ever travel as parameters. */
    static final class Conditions {

        private final List<String> conditions = new ArrayList<>(List.of("true"));
        private final List<Object> parameters = new ArrayList<>();

        /** Adds the condition with these parameters when {@code present} is not null. */
        Conditions when(Object present, String condition, Object... values) {
            if (present != null) {
                conditions.add(condition);
                parameters.addAll(List.of(values));
            }
            return this;
        }

        /**
         * Rows strictly before the keyset, newest first: written so that the received_at index serves it (its first
         * part is an index condition, the second a filter on the few rows of the same instant).
         */
        Conditions before(Keyset keyset) {
            if (keyset != null) {
                OffsetDateTime at = utc(keyset.receivedAt());
                when(keyset, "received_at <= ? AND (received_at < ? OR id < ?)", at, at, keyset.id());
            }
            return this;
        }

        Where build() {
            return new Where(String.join(" AND ", conditions), List.copyOf(parameters));
        }
    }

    /** A text[] parameter: one value, which a varargs call would otherwise spread into several. */
    private static Object array(List<String> values) {
        return values.toArray(String[]::new);
    }

    /** A timestamptz parameter, to the microsecond. */
    static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
