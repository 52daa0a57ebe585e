package io.claimguard.explorer;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;

/**
 * The replay runs {@code claimguard replay} recorded (tables {@code replay_run}, {@code replay_outcome}), read through
 * the explorer's read-only pool: the runs newest first, and for one run the audits whose verdict it would change, beside
 * the stored verdict and reasons. Both page by keyset on a primary key.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class ReplayReader {

    record Run(long id, String policy, String policyCaps, String selection, Instant startedAt, int audits, int changed) {
    }

    /** One audit a run would judge otherwise: the stored row's verdict and reasons, and the replayed ones. */
    record Changed(long auditId, String requestId, Instant receivedAt, String recordedPolicy, String recordedVerdict,
            List<String> recordedReasons, String replayedVerdict, List<String> replayedReasons) {

        /** Whether the replayed verdict is stricter than the stored one (REJECT over LOW_CONFID over PASS). */
        public boolean stricter() {
            return rank(replayedVerdict) > rank(recordedVerdict);
        }

        private static int rank(String verdict) {
            return List.of("PASS", "LOW_CONFID", "REJECT").indexOf(verdict);
        }
    }

    /** A page of rows and the key the next one starts after; null when this is the last. */
    record Page<T>(List<T> rows, Long next) {
    }

    private static final String RUN_COLUMNS = "id, policy, policy_caps, selection, started_at, audits, changed";

    static final String CHANGED = """
            SELECT o.audit_id, a.request_id, a.received_at, o.recorded_policy, o.recorded_verdict, a.guard_reasons,
                   o.replayed_verdict, o.replayed_reasons
            FROM claimguard.replay_outcome AS o
            JOIN claimguard.verification_audit AS a ON a.id = o.audit_id
            WHERE o.run_id = ? AND o.audit_id > ? AND o.replayed_verdict <> o.recorded_verdict
            ORDER BY o.run_id, o.audit_id LIMIT ?""";

    private static final RowMapper<Run> RUN = (rs, n) -> new Run(rs.getLong(1), rs.getString(2), rs.getString(3),
            rs.getString(4), AuditReader.instant(rs, 5), rs.getInt(6), rs.getInt(7));

    private final JdbcTemplate sql;

    ReplayReader(ExplorerDatabase database) {
        this.sql = database.sql();
    }

    /** Runs newest first, those before {@code beforeId} (all when null). */
    Page<Run> runs(Long beforeId, int pageSize) {
        List<Run> rows = sql.query("SELECT " + RUN_COLUMNS + " FROM claimguard.replay_run WHERE id < ? ORDER BY id DESC LIMIT ?",
                RUN, beforeId == null ? Long.MAX_VALUE : beforeId, pageSize + 1);
        return rows.size() <= pageSize ? new Page<>(rows, null)
                : new Page<>(List.copyOf(rows.subList(0, pageSize)), rows.get(pageSize - 1).id());
    }

    Optional<Run> run(long id) {
        return sql.query("SELECT " + RUN_COLUMNS + " FROM claimguard.replay_run WHERE id = ?", RUN, id).stream().findFirst();
    }

    /** The audits of a run whose verdict it changes, by audit id, those after {@code afterAuditId}. */
    Page<Changed> changed(long runId, long afterAuditId, int pageSize) {
        List<Changed> rows = sql.query(CHANGED, (rs, n) -> new Changed(rs.getLong(1), rs.getString(2),
                AuditReader.instant(rs, 3), rs.getString(4), rs.getString(5), texts(rs.getArray(6)), rs.getString(7),
                texts(rs.getArray(8))), runId, afterAuditId, pageSize + 1);
        return rows.size() <= pageSize ? new Page<>(rows, null)
                : new Page<>(List.copyOf(rows.subList(0, pageSize)), rows.get(pageSize - 1).auditId());
    }

    private static List<String> texts(java.sql.Array array) throws java.sql.SQLException {
        if (array == null) {
            return List.of();
        }
        List<String> values = List.of((String[]) array.getArray());
        array.free();
        return values;
    }
}
