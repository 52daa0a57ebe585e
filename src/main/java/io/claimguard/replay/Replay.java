package io.claimguard.replay;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardRule;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import io.claimguard.replay.AuditSelection.StoredAudit;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A replay: the selected audits re-judged under another policy, and the run recorded in {@code claimguard.replay_run}
 * and {@code claimguard.replay_outcome}. The audit rows are only read.
 */
public final class Replay {

    /**
     * Every stored envelope was accepted once, under the service's limits of the day, which may have been higher than
     * today's; stored as jsonb text it may also have grown. A replay re-judges, it does not re-admit.
     */
    static final Limits STORED_ENVELOPES = new Limits(Integer.MAX_VALUE, 1_000);

    private static final String INSERT_RUN = """
            INSERT INTO claimguard.replay_run (policy, policy_caps, selection, started_at, audits, changed)
            VALUES (?, ?, ?, ?, ?, ?)
            RETURNING id
            """;
    private static final String INSERT_OUTCOME = """
            INSERT INTO claimguard.replay_outcome (
                run_id, audit_id, recorded_policy, recorded_verdict, replayed_verdict, replayed_reasons)
            VALUES (?, ?, ?, ?, ?, ?)
            """;

    /**
     * @param outcomes every selected audit that could be re-judged, in id order
     * @param notReplayed per audit whose stored envelope could not be read again, its label and why
     */
    public record Judged(List<ReplayOutcome> outcomes, List<String> notReplayed) {

        public boolean nothingSelected() {
            return outcomes.isEmpty() && notReplayed.isEmpty();
        }
    }

    private Replay() {
    }

    /** Re-judges each selected audit under {@code policy}, as the service would judge it today. */
    public static Judged judge(Connection connection, AuditSelection selection, Policy policy) throws SQLException {
        EnvelopeReader reader = new EnvelopeReader(STORED_ENVELOPES);
        List<ReplayOutcome> outcomes = new ArrayList<>();
        List<String> notReplayed = new ArrayList<>();
        selection.forEach(connection, audit -> {
            try {
                outcomes.add(ReplayOutcome.of(audit, reader, policy));
            } catch (EnvelopeRejectedException | IllegalArgumentException unreadable) {
                notReplayed.add(label(audit) + ": " + unreadable.getMessage());
            }
        });
        return new Judged(List.copyOf(outcomes), List.copyOf(notReplayed));
    }

    /** Records the run and its outcomes in one transaction; returns the run's id. */
    public static long record(Connection connection, Policy policy, AuditSelection selection, Instant startedAt,
            List<ReplayOutcome> outcomes) throws SQLException {
        connection.setAutoCommit(false);
        try {
            long run;
            try (PreparedStatement insert = connection.prepareStatement(INSERT_RUN)) {
                insert.setString(1, policy.id());
                insert.setString(2, "rule-caps " + caps(policy.ruleCaps(), GuardRule::code) + "; finding-caps "
                        + caps(policy.findingCaps(), FindingCode::code));
                insert.setString(3, selection.describe());
                insert.setObject(4, startedAt.atOffset(ZoneOffset.UTC));
                insert.setInt(5, outcomes.size());
                insert.setInt(6, (int) ReplayReport.changed(outcomes));
                try (ResultSet id = insert.executeQuery()) {
                    id.next();
                    run = id.getLong(1);
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(INSERT_OUTCOME)) {
                for (ReplayOutcome outcome : outcomes) {
                    StoredAudit audit = outcome.audit();
                    insert.setLong(1, run);
                    insert.setLong(2, audit.auditId());
                    insert.setString(3, audit.recordedPolicy());
                    insert.setString(4, audit.recordedVerdict().name());
                    insert.setString(5, outcome.replayedVerdict().name());
                    insert.setArray(6, connection.createArrayOf("text", outcome.replayed().reasonCodes().toArray(String[]::new)));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
            return run;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    private static <K> String caps(Map<K, Verdict> caps, Function<K, String> codeOf) {
        return caps.isEmpty() ? "none"
                : String.join(", ", caps.entrySet().stream().map(cap -> codeOf.apply(cap.getKey()) + "=" + cap.getValue()).toList());
    }

    private static String label(StoredAudit audit) {
        return "audit " + audit.auditId() + " (" + audit.requestId() + ")";
    }
}
