package io.claimguard.explorer;

import io.claimguard.seal.RowSeal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/**
 * Every query of the explorer, each one parameterised, on the explorer's read-only pool ({@link ExplorerDatabase}).
 * Lists page by keyset on (received_at, id), newest first, so that a page costs the same on the first and the
 * millionth row.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class AuditReader {

    /** One row of the list of audits. */
    record AuditRow(long id, String requestId, String source, Instant receivedAt, String modelVerdict,
            String effectiveVerdict, boolean downgraded, List<String> guardReasons, String projectionMode) {
    }

    /** A guard rule that fired, as the effective result gives it: code, the cap it sets and what exactly. */
    record Reason(String code, String cap, String detail) {
    }

    record ClaimCheck(int ordinal, String claimId, String claimText, String claimType, String verification,
            String legacyVerification, boolean critical, String detail, String evidenceRefs) {
    }

    record Finding(int ordinal, Integer claimOrdinal, String code, String detail) {
    }

    record AuditDetail(AuditRow row, String sourceRef, Instant auditedAt, Double groundednessScore,
            Integer criticalFactCount, String policy, Long redriveOf, String effectiveResult, String envelope,
            List<Reason> reasons, List<ClaimCheck> claimChecks, List<Finding> findings, RowSeal.Check seal) {
    }

    record DeadLetterRow(long id, String source, String sourceRef, Instant receivedAt, String reasonCode, String reason,
            int payloadBytes) {
    }

    record DeadLetterDetail(DeadLetterRow row, Instant recordedAt, Long redriveOf, byte[] payload) {
    }

    /** A page of a list and where the next (older) page starts; null when this is the last. */
    record Page<T>(List<T> rows, AuditFilter.Keyset next) {
    }

    private static final String AUDIT_COLUMNS = """
            id, request_id, source, received_at, model_verdict, effective_verdict, downgraded, guard_reasons, projection_mode""";

    private static final String ORDER_NEWEST_FIRST = " ORDER BY received_at DESC, id DESC LIMIT ?";

    /** ClaimGuard's own result: under claimguard_effective_result when the envelope had an effective_result of its own. */
    private static final String RESULT = "COALESCE(a.audit -> 'claimguard_effective_result', a.audit -> 'effective_result')";

    private static final String DETAIL = """
            SELECT a.id, a.request_id, a.source, a.received_at, a.model_verdict, a.effective_verdict, a.downgraded,
                   a.guard_reasons, a.projection_mode, a.source_ref, a.audited_at, a.groundedness_score,
                   a.critical_fact_count, a.policy, a.redrive_of,
                   jsonb_pretty(%1$s),
                   jsonb_pretty(CASE WHEN a.audit -> 'claimguard_effective_result' IS NOT NULL
                                     THEN a.audit - 'claimguard_effective_result'
                                     ELSE a.audit - 'effective_result' END)
            FROM claimguard.verification_audit AS a
            WHERE a.id = ?
            """.formatted(RESULT);

    private static final String REASONS = """
            SELECT r ->> 'code', r ->> 'cap', r ->> 'detail'
            FROM claimguard.verification_audit AS a
            CROSS JOIN LATERAL jsonb_array_elements(
                CASE WHEN jsonb_typeof(%1$s -> 'verdict_guard' -> 'reasons') = 'array'
                     THEN %1$s -> 'verdict_guard' -> 'reasons' ELSE '[]'::jsonb END)
                WITH ORDINALITY AS e (r, position)
            WHERE a.id = ?
            ORDER BY e.position
            """.formatted(RESULT);

    private static final String CLAIM_CHECKS = """
            SELECT ordinal, claim_id, claim_text, claim_type, verification, legacy_verification, is_critical, detail,
                   jsonb_pretty(evidence_refs)
            FROM claimguard.claim_check
            WHERE audit_id = ?
            ORDER BY ordinal
            """;

    private static final String FINDINGS = """
            SELECT ordinal, claim_ordinal, code, detail FROM claimguard.finding WHERE audit_id = ? ORDER BY ordinal""";

    private static final String DEAD_LETTER_COLUMNS = """
            id, source, source_ref, received_at, reason_code, reason, octet_length(payload)""";

    private final JdbcTemplate sql;

    AuditReader(ExplorerDatabase database) {
        this.sql = database.sql();
    }

    Page<AuditRow> audits(AuditFilter filter, int pageSize) {
        AuditFilter.Where where = filter.where();
        return page(listQuery(filter), where.parameters(), pageSize, AUDIT_ROW, row -> keyset(row.receivedAt(), row.id()));
    }

    /** The list query for this filter, with {@code ?} for its parameters and the page size last. */
    static String listQuery(AuditFilter filter) {
        return "SELECT " + AUDIT_COLUMNS + " FROM claimguard.verification_audit WHERE " + filter.where().sql()
                + ORDER_NEWEST_FIRST;
    }

    /** The audits a search term names: the audit id it is, and every attempt of the request id it is. */
    List<AuditRow> find(String term) {
        List<AuditRow> rows = new ArrayList<>();
        if (term.matches("\\d{1,18}")) {
            rows.addAll(sql.query("SELECT " + AUDIT_COLUMNS + " FROM claimguard.verification_audit WHERE id = ?",
                    AUDIT_ROW, Long.parseLong(term)));
        }
        rows.addAll(sql.query("SELECT " + AUDIT_COLUMNS
                + " FROM claimguard.verification_audit WHERE request_id = ? ORDER BY received_at DESC, id DESC LIMIT 200",
                AUDIT_ROW, term));
        return rows.stream().distinct().toList();
    }

    Optional<AuditDetail> audit(long id) {
        List<AuditDetail> found = sql.query(DETAIL, (rs, n) -> {
            AuditRow row = AUDIT_ROW.mapRow(rs, n);
            return new AuditDetail(row, rs.getString(10), instant(rs, 11), (Double) rs.getObject(12),
                    (Integer) rs.getObject(13), rs.getString(14), (Long) rs.getObject(15), rs.getString(16),
                    rs.getString(17), List.of(), List.of(), List.of(), null);
        }, id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        AuditDetail detail = found.get(0);
        List<Reason> reasons = sql.query(REASONS, (rs, n) -> new Reason(rs.getString(1), rs.getString(2), rs.getString(3)), id);
        List<ClaimCheck> claims = sql.query(CLAIM_CHECKS, (rs, n) -> new ClaimCheck(rs.getInt(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getBoolean(7), rs.getString(8),
                rs.getString(9)), id);
        List<Finding> findings = sql.query(FINDINGS, (rs, n) -> new Finding(rs.getInt(1), (Integer) rs.getObject(2),
                rs.getString(3), rs.getString(4)), id);
        RowSeal.Check seal = sql.execute((ConnectionCallback<RowSeal.Check>) connection -> RowSeal.check(connection, id));
        return Optional.of(new AuditDetail(detail.row(), detail.sourceRef(), detail.auditedAt(), detail.groundednessScore(),
                detail.criticalFactCount(), detail.policy(), detail.redriveOf(), detail.effectiveResult(), detail.envelope(),
                reasons, claims, findings, seal));
    }

    Page<DeadLetterRow> deadLetters(String reasonCode, String source, AuditFilter.Keyset before, int pageSize) {
        AuditFilter.Where where = new AuditFilter.Conditions().when(reasonCode, "reason_code = ?", reasonCode)
                .when(source, "source = ?", source).before(before).build();
        return page(deadLetterListQuery(where), where.parameters(), pageSize, DEAD_LETTER_ROW, row -> keyset(row.receivedAt(), row.id()));
    }

    /** The dead-letter list query for these conditions, with the page size as its last parameter. */
    static String deadLetterListQuery(AuditFilter.Where where) {
        return "SELECT " + DEAD_LETTER_COLUMNS + " FROM claimguard.dead_letter WHERE " + where.sql() + ORDER_NEWEST_FIRST;
    }

    Optional<DeadLetterDetail> deadLetter(long id) {
        return sql.query("SELECT " + DEAD_LETTER_COLUMNS + ", recorded_at, redrive_of, payload FROM claimguard.dead_letter"
                        + " WHERE id = ?",
                (rs, n) -> new DeadLetterDetail(DEAD_LETTER_ROW.mapRow(rs, n), instant(rs, 8), (Long) rs.getObject(9),
                        rs.getBytes(10)), id).stream().findFirst();
    }

    JdbcTemplate sql() {
        return sql;
    }

    private <T> Page<T> page(String query, List<Object> parameters, int pageSize, RowMapper<T> mapper,
            java.util.function.Function<T, AuditFilter.Keyset> keyOf) {
        List<Object> withLimit = new ArrayList<>(parameters);
        withLimit.add(pageSize + 1);
        List<T> rows = sql.query(query, mapper, withLimit.toArray());
        if (rows.size() <= pageSize) {
            return new Page<>(rows, null);
        }
        List<T> shown = rows.subList(0, pageSize);
        return new Page<>(List.copyOf(shown), keyOf.apply(shown.get(pageSize - 1)));
    }

    private static AuditFilter.Keyset keyset(Instant receivedAt, long id) {
        return new AuditFilter.Keyset(receivedAt, id);
    }

    private static final RowMapper<AuditRow> AUDIT_ROW = (rs, n) -> new AuditRow(rs.getLong(1), rs.getString(2),
            rs.getString(3), instant(rs, 4), rs.getString(5), rs.getString(6), rs.getBoolean(7), textArray(rs, 8),
            rs.getString(9));

    private static final RowMapper<DeadLetterRow> DEAD_LETTER_ROW = (rs, n) -> new DeadLetterRow(rs.getLong(1),
            rs.getString(2), rs.getString(3), instant(rs, 4), rs.getString(5), rs.getString(6), rs.getInt(7));

    static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static List<String> textArray(ResultSet rs, int column) throws SQLException {
        Array array = rs.getArray(column);
        if (array == null) {
            return List.of();
        }
        List<String> values = Arrays.asList((String[]) array.getArray());
        array.free();
        return values;
    }
}
