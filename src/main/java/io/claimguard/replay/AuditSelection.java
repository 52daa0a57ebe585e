package io.claimguard.replay;

import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The audit rows an operator selects for a replay: every kind of selector given narrows the selection (request ids,
 * effective verdicts, a time range on {@code received_at}); several values of one kind are alternatives; none selects
 * every row.
 *
 * @param requestIds request ids; empty for any
 * @param verdicts effective verdicts; empty for any
 * @param since the earliest {@code received_at} (inclusive); null for no bound
 * @param until the latest {@code received_at} (exclusive); null for no bound
 */
public record AuditSelection(List<String> requestIds, List<Verdict> verdicts, Instant since, Instant until) {

    private static final String SELECT = """
            SELECT a.id, a.request_id, a.effective_verdict, a.policy, a.guard_reasons, a.audit::text
            FROM claimguard.verification_audit a
            WHERE (cardinality(CAST(? AS text[])) = 0 OR a.request_id = ANY (CAST(? AS text[])))
              AND (cardinality(CAST(? AS text[])) = 0 OR a.effective_verdict = ANY (CAST(? AS text[])))
              AND (CAST(? AS timestamptz) IS NULL OR a.received_at >= CAST(? AS timestamptz))
              AND (CAST(? AS timestamptz) IS NULL OR a.received_at < CAST(? AS timestamptz))
            ORDER BY a.id
            """;
    /** Rows fetched at a time: a replay of a large range never holds every audit document at once. */
    private static final int FETCH_SIZE = 200;

    /**
     * One selected audit row, as it was recorded.
     *
     * @param recordedPolicy the policy that judged it; {@code default@1} for rows written before the column existed
     * @param document the audit document ({@code audit}): the envelope with the effective result added
     */
    public record StoredAudit(long auditId, String requestId, Verdict recordedVerdict, String recordedPolicy,
            List<String> recordedReasons, String document) {
    }

    /** How the selection is recorded with the replay run: the options that make it, in a fixed order. */
    String describe() {
        List<String> options = new ArrayList<>();
        requestIds.forEach(id -> options.add("--request-id " + id));
        verdicts.forEach(verdict -> options.add("--verdict " + verdict));
        if (since != null) {
            options.add("--since " + since);
        }
        if (until != null) {
            options.add("--until " + until);
        }
        return options.isEmpty() ? "--all" : String.join(" ", options);
    }

    /** Hands each selected audit row, in id order, to {@code each}; the rows are read a page at a time. */
    void forEach(Connection connection, Consumer<StoredAudit> each) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false); // PostgreSQL fetches page by page only inside a transaction
        try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setFetchSize(FETCH_SIZE);
            Array ids = connection.createArrayOf("text", requestIds.toArray(String[]::new));
            Array verdictNames = connection.createArrayOf("text", verdicts.stream().map(Verdict::name).toArray(String[]::new));
            OffsetDateTime from = since == null ? null : since.atOffset(ZoneOffset.UTC);
            OffsetDateTime to = until == null ? null : until.atOffset(ZoneOffset.UTC);
            Object[] values = {ids, ids, verdictNames, verdictNames, from, from, to, to};
            for (int i = 0; i < values.length; i++) {
                select.setObject(i + 1, values[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String policy = rows.getString(4);
                    each.accept(new StoredAudit(rows.getLong(1), rows.getString(2), Verdict.valueOf(rows.getString(3)),
                            policy == null ? Policy.CONTRACT.id() : policy,
                            List.of((String[]) rows.getArray(5).getArray()), rows.getString(6)));
                }
            }
        } finally {
            connection.commit();
            connection.setAutoCommit(autoCommit);
        }
    }

}
