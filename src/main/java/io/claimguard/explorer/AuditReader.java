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
import java.util.function.ToIntFunction;
import org.springframework.beans.factory.annotation.Autowired;
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

    /**
     * One row of the list of audits.
     *
     * @param findings how many findings of each code it has, by code
     */
    record AuditRow(long id, String requestId, String source, Instant receivedAt, String modelVerdict,
            String effectiveVerdict, boolean downgraded, List<String> guardReasons, String projectionMode,
            List<FindingCount> findings) {
    }

    /** How many findings of one code an audit has. */
    record FindingCount(String code, long count) {

        @Override
        public String toString() {
            return count == 1 ? code : code + " ×" + count;
        }
    }

    /**
     * A text value as a page shows it: no more than {@link #CLIP} characters of it, and how long it is, so that one huge
     * value (a claim text, an error message) cannot make a page huge. The envelope holds every value whole.
     *
     * @param shown the value's first characters; null for SQL NULL
     * @param length how many characters the value has
     */
    record Clip(String shown, int length) {

        public boolean clipped() {
            return shown != null && shown.length() < length;
        }
    }

    /** A guard rule that fired, as the effective result gives it: code, the cap it sets and what exactly. */
    record Reason(String code, String cap, Clip detail) {
    }

    record ClaimCheck(int ordinal, Clip claimId, Clip claimText, Clip claimType, Clip verification,
            String legacyVerification, boolean critical, Clip detail, Clip evidenceRefs) {
    }

    record Finding(int ordinal, Integer claimOrdinal, String code, Clip detail) {
    }

    /**
     * A JSON document of the audit row (the effective result, the envelope), pretty-printed.
     *
     * @param inline the document, when it is small enough to be shown on the audit page; null otherwise
     * @param bytes its size pretty-printed, in UTF-8 bytes; null when the row is too large to print it for the page
     */
    record Json(String inline, Long bytes) {

        public boolean shown() {
            return inline != null;
        }
    }

    /**
     * The rows of one page of a list that an audit has (its claim checks, its findings), by ordinal.
     *
     * @param from the first ordinal asked for
     * @param total how many rows the audit has in all
     * @param next the ordinal the next page starts at; null when this is the last
     */
    record Slice<T>(List<T> rows, int from, long total, Integer next) {
    }

    /**
     * @param large whether the audit document, as stored, is larger than what the page shows inline: then its documents
     *     are only links and its seal is not verified unless asked ({@code verified} false)
     * @param seal the row's seal; verified (status {@code VERIFIES} or {@code DOES_NOT_VERIFY}) unless {@code verified}
     *     is false, then {@code NOT_SEALED} or, for a sealed row, its seq and time with the status left unchecked
     */
    record AuditDetail(AuditRow row, String sourceRef, Instant auditedAt, Double groundednessScore,
            Integer criticalFactCount, String policy, Long redriveOf, boolean large, Json effectiveResult, Json envelope,
            List<Reason> reasons, Slice<ClaimCheck> claimChecks, Slice<Finding> findings, RowSeal.Check seal,
            boolean verified) {
    }

    /**
     * @param payloadSize the whole input's size
     * @param truncated whether the row keeps only the first bytes of it
     */
    record DeadLetterRow(long id, String source, String sourceRef, Instant receivedAt, String reasonCode, String reason,
            long payloadSize, boolean truncated) {
    }

    /**
     * @param firstBytes the first bytes the row keeps, no more than the page shows
     * @param storedBytes how many bytes the row keeps
     * @param sha256 the SHA-256 of the whole input, in hex
     */
    record DeadLetterDetail(DeadLetterRow row, Instant recordedAt, Long redriveOf, byte[] firstBytes, long storedBytes,
            String sha256) {
    }

    /** A page of a list and where the next (older) page starts; null when this is the last. */
    record Page<T>(List<T> rows, AuditFilter.Keyset next) {
    }

    private static final String AUDIT_COLUMNS = """
            id, request_id, source, received_at, model_verdict, effective_verdict, downgraded, guard_reasons, projection_mode""";

    private static final String ORDER_NEWEST_FIRST = " ORDER BY received_at DESC, id DESC LIMIT ?";

    /**
     * The rows of a list query with each one's findings counted by code, taken after the rows (a range of the finding
     * table's primary key per row shown), in the list's order.
     */
    private static final String WITH_FINDINGS = """
            SELECT l.*, c.codes, c.counts
            FROM (%s) AS l
            LEFT JOIN LATERAL (SELECT array_agg(g.code ORDER BY g.code) AS codes, array_agg(g.n ORDER BY g.code) AS counts
                               FROM (SELECT f.code, count(*) AS n FROM claimguard.finding AS f
                                     WHERE f.audit_id = l.id GROUP BY f.code) AS g) AS c ON true
            ORDER BY l.received_at DESC, l.id DESC""";

    /** ClaimGuard's own result: under claimguard_effective_result when the envelope had an effective_result of its own. */
    static final String RESULT = "COALESCE(a.audit -> 'claimguard_effective_result', a.audit -> 'effective_result')";

    /** The envelope as received: the audit document without ClaimGuard's result. */
    static final String ENVELOPE = """
            CASE WHEN a.audit -> 'claimguard_effective_result' IS NOT NULL
                 THEN a.audit - 'claimguard_effective_result'
                 ELSE a.audit - 'effective_result' END""";

    /** Characters of one value a page shows at most ({@link Clip}). */
    static final int CLIP = 1_000;

    /**
     * The row; whether its audit document, as stored ({@code pg_column_size}: compressed, read from the row's header
     * without fetching the document), is over the inline size; and only when it is not, its two documents
     * pretty-printed once each (the fence {@code OFFSET 0} keeps PostgreSQL from printing them again for every use),
     * each sent when it is no larger than the inline size, else only its size.
     */
    private static final String DETAIL = """
            SELECT a.id, a.request_id, a.source, a.received_at, a.model_verdict, a.effective_verdict, a.downgraded,
                   a.guard_reasons, a.projection_mode, a.source_ref, a.audited_at, a.groundedness_score,
                   a.critical_fact_count, a.policy, a.redrive_of, pg_column_size(a.audit) > i.bytes,
                   CASE WHEN octet_length(d.result) <= i.bytes THEN d.result END, CAST(octet_length(d.result) AS bigint),
                   CASE WHEN octet_length(d.envelope) <= i.bytes THEN d.envelope END, CAST(octet_length(d.envelope) AS bigint)
            FROM (SELECT CAST(? AS bigint) AS bytes) AS i
            CROSS JOIN claimguard.verification_audit AS a
            LEFT JOIN LATERAL (SELECT jsonb_pretty(%1$s) AS result, jsonb_pretty(%2$s) AS envelope
                               WHERE pg_column_size(a.audit) <= i.bytes OFFSET 0) AS d ON true
            WHERE a.id = ?
            """.formatted(RESULT, ENVELOPE);

    /**
     * Every guard reason (one per rule that fired: a handful at most), each detail clipped. The reasons are taken out of
     * the document once (the fence {@code OFFSET 0}), which is then not read again for every use.
     */
    private static final String REASONS = """
            SELECT r ->> 'code', r ->> 'cap', left(r ->> 'detail', p.clip), char_length(r ->> 'detail')
            FROM (SELECT CAST(? AS integer) AS clip) AS p
            CROSS JOIN (SELECT %s -> 'verdict_guard' -> 'reasons' AS reasons
                        FROM claimguard.verification_audit AS a WHERE a.id = ? OFFSET 0) AS g
            CROSS JOIN LATERAL jsonb_array_elements(
                CASE WHEN jsonb_typeof(g.reasons) = 'array' THEN g.reasons ELSE '[]'::jsonb END)
                WITH ORDINALITY AS e (r, position)
            ORDER BY e.position
            """.formatted(RESULT);

    /**
     * One page of claim checks from an ordinal on, each value clipped: the rows are a range of the primary key's index,
     * taken first, and only they are clipped and printed.
     */
    static final String CLAIM_CHECKS = """
            SELECT c.ordinal, left(c.claim_id, p.clip), char_length(c.claim_id), left(c.claim_text, p.clip),
                   char_length(c.claim_text), left(c.claim_type, p.clip), char_length(c.claim_type),
                   left(c.verification, p.clip), char_length(c.verification), c.legacy_verification, c.is_critical,
                   left(c.detail, p.clip), char_length(c.detail), left(jsonb_pretty(c.evidence_refs), p.clip),
                   char_length(jsonb_pretty(c.evidence_refs))
            FROM (SELECT CAST(? AS integer) AS clip) AS p
            CROSS JOIN (SELECT * FROM claimguard.claim_check WHERE audit_id = ? AND ordinal >= ?
                        ORDER BY audit_id, ordinal LIMIT ?) AS c
            ORDER BY c.ordinal
            """;

    /** One page of findings from an ordinal on, each detail clipped, as the claim checks are. */
    static final String FINDINGS = """
            SELECT f.ordinal, f.claim_ordinal, f.code, left(f.detail, p.clip), char_length(f.detail)
            FROM (SELECT CAST(? AS integer) AS clip) AS p
            CROSS JOIN (SELECT * FROM claimguard.finding WHERE audit_id = ? AND ordinal >= ?
                        ORDER BY audit_id, ordinal LIMIT ?) AS f
            ORDER BY f.ordinal
            """;

    /** The row's seal without checking it: what a large row's page says unless asked to verify it. */
    private static final String SEAL = "SELECT seq, sealed_at FROM claimguard.audit_seal WHERE audit_id = ?";

    private static final String COUNTS = """
            SELECT (SELECT count(*) FROM claimguard.claim_check WHERE audit_id = ?),
                   (SELECT count(*) FROM claimguard.finding WHERE audit_id = ?)""";

    private static final String DEAD_LETTER_COLUMNS = """
            id, source, source_ref, received_at, reason_code, reason, payload_size, payload_truncated""";

    private final JdbcTemplate sql;

    @Autowired
    AuditReader(ExplorerDatabase database) {
        this(database.sql());
    }

    /** Over any connection pool: the query plan test's. */
    AuditReader(JdbcTemplate sql) {
        this.sql = sql;
    }

    Page<AuditRow> audits(AuditFilter filter, int pageSize) {
        if (filter.source() == null) {
            return auditPage(filter, pageSize);
        }
        // a source no index serves (it has three values): where few rows have it, newest first read the whole table
        // to fill a page (616 ms at 1,000,000 audits for one that none has); the hourly rollup bounds the read
        SourceHours hours = sourceHours(filter, pageSize + 1);
        if (hours.oldest() == null) {
            return new Page<>(List.of(), null);
        }
        if (hours.enough() != null) {
            Page<AuditRow> bounded = auditPage(filter.from(laterOf(filter.from(), hours.enough())), pageSize);
            if (bounded.next() != null) {
                // more rows than a page from that hour on: the newest ones, whatever lies before it
                return bounded;
            }
        }
        return auditPage(filter.from(laterOf(filter.from(), hours.oldest())), pageSize);
    }

    private Page<AuditRow> auditPage(AuditFilter filter, int pageSize) {
        AuditFilter.Where where = filter.where();
        return page(listQuery(filter), where.parameters(), pageSize, AUDIT_ROW, row -> keyset(row.receivedAt(), row.id()));
    }

    /**
     * From the hourly rollup, for the filter's source (and verdict, downgraded) in its time range: {@code oldest}, the
     * start of the oldest hour with such rows (null when none has any; no row of an hour the rollup counts none in can
     * exist, as it counts every row written); {@code enough}, the start of the newest hour from which on the hours before
     * the list's upper end hold at least {@code wanted} such rows (null when they do not). The counts are of rows as
     * written: rows of a partition archived and dropped are still in them, and the other filters narrow them further,
     * so {@code enough} is only a guess, which the caller checks.
     */
    record SourceHours(Instant enough, Instant oldest) {
    }

    private SourceHours sourceHours(AuditFilter filter, int wanted) {
        Instant upper = filter.to();
        if (filter.before() != null && (upper == null || filter.before().receivedAt().isBefore(upper))) {
            upper = filter.before().receivedAt();
        }
        AuditFilter.Conditions conditions = new AuditFilter.Conditions()
                .when(filter.source(), "source = ?", filter.source())
                .when(filter.verdict(), "effective_verdict = ?", filter.verdict())
                .when(filter.downgraded(), "downgraded = ?", filter.downgraded())
                .when(filter.from(), "received_hour >= date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC')",
                        filter.from() == null ? null : AuditFilter.utc(filter.from()))
                .when(upper, "received_hour <= date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC')",
                        upper == null ? null : AuditFilter.utc(upper));
        AuditFilter.Where where = conditions.build();
        // the hour the upper end falls in is only partly before it: its rows are not counted towards enough
        String upperHour = upper == null ? "'infinity'::timestamp"
                : "date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC')";
        String query = """
                WITH hours AS (
                    SELECT received_hour, sum(input_count) AS n FROM claimguard.audit_rollup WHERE %s
                    GROUP BY received_hour HAVING sum(input_count) > 0),
                counted AS (
                    SELECT received_hour, sum(n) OVER (ORDER BY received_hour DESC) AS running
                    FROM hours WHERE received_hour < %s)
                SELECT (SELECT max(received_hour) FROM counted WHERE running >= ?) AT TIME ZONE 'UTC',
                       (SELECT min(received_hour) FROM hours) AT TIME ZONE 'UTC'""".formatted(where.sql(), upperHour);
        List<Object> parameters = new ArrayList<>(where.parameters());
        if (upper != null) {
            parameters.add(AuditFilter.utc(upper));
        }
        parameters.add(wanted);
        return sql.queryForObject(query, (rs, n) -> new SourceHours(instant(rs, 1), instant(rs, 2)),
                parameters.toArray());
    }

    private static Instant laterOf(Instant from, Instant bound) {
        return from == null || bound.isAfter(from) ? bound : from;
    }

    /** The list query for this filter, with {@code ?} for its parameters and the page size last. */
    static String listQuery(AuditFilter filter) {
        return withFindings("SELECT " + AUDIT_COLUMNS + " FROM claimguard.verification_audit WHERE "
                + filter.where().sql() + ORDER_NEWEST_FIRST);
    }

    /** The audits a search term names: the audit id it is, and every attempt of the request id it is. */
    List<AuditRow> find(String term) {
        List<AuditRow> rows = new ArrayList<>();
        if (term.matches("\\d{1,18}")) {
            rows.addAll(sql.query(withFindings("SELECT " + AUDIT_COLUMNS
                    + " FROM claimguard.verification_audit WHERE id = ?"), AUDIT_ROW, Long.parseLong(term)));
        }
        rows.addAll(sql.query(withFindings("SELECT " + AUDIT_COLUMNS
                + " FROM claimguard.verification_audit WHERE request_id = ? ORDER BY received_at DESC, id DESC LIMIT 200"),
                AUDIT_ROW, term));
        return rows.stream().distinct().toList();
    }

    /**
     * One audit's page: the row, its documents when they are small, its guard reasons, one page of its claim checks and
     * one of its findings (from the ordinals asked for), and its seal, verified unless the row is large and
     * {@code verifySeal} is false (a check reads and hashes all of the row's content).
     *
     * @param claimsFrom the first claim check's ordinal
     * @param findingsFrom the first finding's ordinal
     * @param rows claim checks, and findings, on the page
     * @param inlineJson the largest document (as stored, and pretty-printed, in bytes) shown on the page
     */
    Optional<AuditDetail> audit(long id, int claimsFrom, int findingsFrom, int rows, long inlineJson, boolean verifySeal) {
        List<AuditDetail> found = sql.query(DETAIL, (rs, n) -> {
            AuditRow row = auditRow(rs, List.of());
            return new AuditDetail(row, rs.getString(10), instant(rs, 11), (Double) rs.getObject(12),
                    (Integer) rs.getObject(13), rs.getString(14), (Long) rs.getObject(15), rs.getBoolean(16),
                    new Json(rs.getString(17), rs.getObject(18, Long.class)), new Json(rs.getString(19), rs.getObject(20, Long.class)),
                    List.of(), null, null, null, false);
        }, inlineJson, id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        AuditDetail detail = found.get(0);
        List<Reason> reasons = sql.query(REASONS, (rs, n) -> new Reason(rs.getString(1), rs.getString(2), clip(rs, 3)),
                CLIP, id);
        long[] counts = sql.queryForObject(COUNTS, (rs, n) -> new long[] {rs.getLong(1), rs.getLong(2)}, id, id);
        Slice<ClaimCheck> claims = slice(CLAIM_CHECKS, (rs, n) -> new ClaimCheck(rs.getInt(1), clip(rs, 2), clip(rs, 4),
                clip(rs, 6), clip(rs, 8), rs.getString(10), rs.getBoolean(11), clip(rs, 12), clip(rs, 14)),
                ClaimCheck::ordinal, counts[0], rows, claimsFrom, id);
        Slice<Finding> findings = slice(FINDINGS, (rs, n) -> new Finding(rs.getInt(1), (Integer) rs.getObject(2),
                rs.getString(3), clip(rs, 4)), Finding::ordinal, counts[1], rows, findingsFrom, id);
        boolean verify = verifySeal || !detail.large();
        RowSeal.Check seal = verify
                ? sql.execute((ConnectionCallback<RowSeal.Check>) connection -> RowSeal.check(connection, id))
                : sql.query(SEAL, (rs, n) -> new RowSeal.Check(null, rs.getLong(1), rs.getObject(2, OffsetDateTime.class),
                        null), id).stream().findFirst().orElse(new RowSeal.Check(RowSeal.Status.NOT_SEALED, null, null, null));
        return Optional.of(new AuditDetail(detail.row(), detail.sourceRef(), detail.auditedAt(), detail.groundednessScore(),
                detail.criticalFactCount(), detail.policy(), detail.redriveOf(), detail.large(), detail.effectiveResult(),
                detail.envelope(), reasons, claims, findings, seal, verify));
    }

    /** The rows of one page from an ordinal on: the query's parameters are the clip, the audit id, the ordinal, the limit. */
    private <T> Slice<T> slice(String query, RowMapper<T> mapper, ToIntFunction<T> ordinalOf, long total, int rows,
            int from, long auditId) {
        List<T> page = sql.query(query, mapper, CLIP, auditId, from, rows + 1);
        if (page.size() <= rows) {
            return new Slice<>(page, from, total, null);
        }
        List<T> shown = List.copyOf(page.subList(0, rows));
        return new Slice<>(shown, from, total, ordinalOf.applyAsInt(shown.get(rows - 1)) + 1);
    }

    private static Clip clip(ResultSet rs, int column) throws SQLException {
        return new Clip(rs.getString(column), rs.getInt(column + 1));
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

    /** A dead letter with the first bytes the page shows: only they are read, however large the row. */
    Optional<DeadLetterDetail> deadLetter(long id) {
        return sql.query("SELECT " + DEAD_LETTER_COLUMNS + ", recorded_at, redrive_of, substring(payload FROM 1 FOR ?),"
                        + " octet_length(payload), encode(payload_sha256, 'hex') FROM claimguard.dead_letter WHERE id = ?",
                (rs, n) -> new DeadLetterDetail(DEAD_LETTER_ROW.mapRow(rs, n), instant(rs, 9), (Long) rs.getObject(10),
                        rs.getBytes(11), rs.getLong(12), rs.getString(13)), Payload.SHOWN, id).stream().findFirst();
    }

    /** Events of a story shown at most, of each kind. */
    static final int STORY_ROWS = 500;

    /**
     * The dead letters on the re-drive chains of a request id's audits: from the dead letter an audit was re-driven
     * from, back through the ones it was re-driven from and on to those re-driven from it (each step a lookup of the
     * primary key or of the redrive_of index).
     */
    static final String CHAIN = """
            WITH RECURSIVE chain (id) AS (
                SELECT redrive_of FROM claimguard.verification_audit WHERE request_id = ? AND redrive_of IS NOT NULL
                UNION
                SELECT v.id FROM claimguard.dead_letter AS d
                JOIN chain AS c ON d.id = c.id OR d.redrive_of = c.id
                CROSS JOIN LATERAL (VALUES (d.id), (d.redrive_of)) AS v (id)
                WHERE v.id IS NOT NULL
            )""";

    /** The audits of a request id and those re-driven from a dead letter of its chains, oldest first. */
    static final String STORY_AUDITS = CHAIN + """

            SELECT %1$s, redrive_of FROM claimguard.verification_audit WHERE request_id = ?
            UNION
            SELECT %1$s, redrive_of FROM claimguard.verification_audit WHERE redrive_of IN (SELECT id FROM chain)
            ORDER BY received_at, id LIMIT ?""".formatted(AUDIT_COLUMNS);

    /** The dead letters of a request id's re-drive chains, oldest first. */
    static final String STORY_DEAD_LETTERS = CHAIN + """

            SELECT %s, redrive_of FROM claimguard.dead_letter WHERE id IN (SELECT id FROM chain)
            ORDER BY received_at, id LIMIT ?""".formatted(DEAD_LETTER_COLUMNS);

    /** Every audit and dead letter of a request id's story; no more than {@link #STORY_ROWS} of each. */
    Story story(String requestId) {
        List<Story.StoryAudit> audits = sql.query(STORY_AUDITS, (rs, n) -> new Story.StoryAudit(auditRow(rs, List.of()),
                (Long) rs.getObject(10)), requestId, requestId, STORY_ROWS + 1);
        List<Story.StoryDeadLetter> deadLetters = sql.query(STORY_DEAD_LETTERS, (rs, n) -> new Story.StoryDeadLetter(
                DEAD_LETTER_ROW.mapRow(rs, n), (Long) rs.getObject(9)), requestId, STORY_ROWS + 1);
        boolean cut = audits.size() > STORY_ROWS || deadLetters.size() > STORY_ROWS;
        return Story.of(requestId, audits.stream().limit(STORY_ROWS).toList(),
                deadLetters.stream().limit(STORY_ROWS).toList(), cut);
    }

    /** The audits re-driven from this dead letter, and the dead letters it made when it was dead-lettered again. */
    record Redriven(List<AuditRow> audits, List<Long> deadLetters) {
    }

    Redriven redrivenFrom(long deadLetterId) {
        return new Redriven(sql.query(withFindings("SELECT " + AUDIT_COLUMNS
                        + " FROM claimguard.verification_audit WHERE redrive_of = ? ORDER BY received_at DESC, id DESC LIMIT 100"),
                AUDIT_ROW, deadLetterId),
                sql.queryForList("SELECT id FROM claimguard.dead_letter WHERE redrive_of = ? ORDER BY id LIMIT 100",
                        Long.class, deadLetterId));
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

    /** The query's rows with their findings counted by code: they are its last two columns, after the audit's. */
    static String withFindings(String query) {
        return WITH_FINDINGS.formatted(query);
    }

    /** An audit row of a query made by {@link #withFindings}. */
    static final RowMapper<AuditRow> AUDIT_ROW = (rs, n) -> auditRow(rs, findingCounts(rs, 10));

    /** The row from the first columns of a query, in the order of {@link #AUDIT_COLUMNS}. */
    private static AuditRow auditRow(ResultSet rs, List<FindingCount> findings) throws SQLException {
        return new AuditRow(rs.getLong(1), rs.getString(2), rs.getString(3), instant(rs, 4), rs.getString(5),
                rs.getString(6), rs.getBoolean(7), textArray(rs, 8), rs.getString(9), findings);
    }

    private static List<FindingCount> findingCounts(ResultSet rs, int column) throws SQLException {
        List<String> codes = textArray(rs, column);
        Array counts = rs.getArray(column + 1);
        if (counts == null) {
            return List.of();
        }
        Object[] values = (Object[]) counts.getArray();
        counts.free();
        List<FindingCount> found = new ArrayList<>();
        for (int i = 0; i < codes.size(); i++) {
            found.add(new FindingCount(codes.get(i), ((Number) values[i]).longValue()));
        }
        return List.copyOf(found);
    }

    private static final RowMapper<DeadLetterRow> DEAD_LETTER_ROW = (rs, n) -> new DeadLetterRow(rs.getLong(1),
            rs.getString(2), rs.getString(3), instant(rs, 4), rs.getString(5), rs.getString(6), rs.getLong(7),
            rs.getBoolean(8));

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
