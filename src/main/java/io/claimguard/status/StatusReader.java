package io.claimguard.status;

import io.claimguard.domain.Verdict;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainVerification;
import io.claimguard.status.StatusReport.AuditFacts;
import io.claimguard.status.StatusReport.ChainState;
import io.claimguard.status.StatusReport.Window;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * Reads the audit database's part of the status on a plain connection; any login that can read schema claimguard
 * will do. Every query is served by an index, so that it stays fast on millions of rows: the windows by
 * {@code received_at} (the inputs' arrival, which the audit follows within moments), the last audit by the primary
 * key, the chain head by the seal's primary key. The chain is not recomputed: its head link is checked (constant
 * time) and the newest verify-chain run recorded in {@code claimguard.chain_verification} says how far it was
 * verified, when and from which checkpoint. The row counts are index-only scans of the two primary keys.
 */
public final class StatusReader {

    static final Duration HOUR = Duration.ofHours(1);
    static final Duration DAY = Duration.ofDays(1);

    /** Audited inputs of the last day by effective verdict, with the last hour's among them. */
    private static final String INPUTS = """
            SELECT effective_verdict,
                   count(*) FILTER (WHERE received_at >= now() - make_interval(secs => ?)),
                   count(*),
                   count(*) FILTER (WHERE downgraded AND received_at >= now() - make_interval(secs => ?)),
                   count(*) FILTER (WHERE downgraded)
            FROM claimguard.verification_audit
            WHERE received_at >= now() - make_interval(secs => ?)
            GROUP BY effective_verdict
            """;

    private static final String DEAD_LETTERS = """
            SELECT count(*) FILTER (WHERE received_at >= now() - make_interval(secs => ?)), count(*)
            FROM claimguard.dead_letter
            WHERE received_at >= now() - make_interval(secs => ?)
            """;

    /** The newest audit row's time: the highest id is the last one inserted. */
    private static final String LAST_AUDIT = "SELECT audited_at FROM claimguard.verification_audit ORDER BY id DESC LIMIT 1";

    private static final String CHAIN_HEAD = "SELECT seq, hash FROM claimguard.audit_seal ORDER BY seq DESC LIMIT 1";

    private static final String SEALS_AFTER = "SELECT count(*) FROM claimguard.audit_seal WHERE seq > ?";

    private static final String CHAIN_COUNTS = """
            SELECT (SELECT count(*) FROM claimguard.audit_seal), (SELECT count(*) FROM claimguard.verification_audit)
            """;

    private StatusReader() {
    }

    /** The audit facts, the chain's head link checked and its last verification read. */
    public static AuditFacts read(Connection connection) throws SQLException {
        Map<Verdict, long[]> inputs = inputCounts(connection);
        long[] deadLetters = deadLetterCounts(connection);
        Window lastHour = window(inputs, 0, 2, deadLetters[0]);
        Window lastDay = window(inputs, 1, 3, deadLetters[1]);
        Instant lastAuditAt = lastAuditAt(connection);
        ChainState chain = chain(connection);
        return new AuditFacts(lastHour, lastDay, lastAuditAt, chain);
    }

    /** Per verdict: last hour, last day, downgraded in the last hour, downgraded in the last day. */
    private static Map<Verdict, long[]> inputCounts(Connection connection) throws SQLException {
        Map<Verdict, long[]> counts = new EnumMap<>(Verdict.class);
        try (PreparedStatement query = connection.prepareStatement(INPUTS)) {
            query.setDouble(1, HOUR.toSeconds());
            query.setDouble(2, HOUR.toSeconds());
            query.setDouble(3, DAY.toSeconds());
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    counts.put(Verdict.valueOf(rs.getString(1)),
                            new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)});
                }
            }
        }
        return counts;
    }

    /** Last hour, last day. */
    private static long[] deadLetterCounts(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(DEAD_LETTERS)) {
            query.setDouble(1, HOUR.toSeconds());
            query.setDouble(2, DAY.toSeconds());
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    private static Window window(Map<Verdict, long[]> inputs, int countColumn, int downgradedColumn, long deadLetters) {
        Map<Verdict, Long> byVerdict = new EnumMap<>(Verdict.class);
        long total = 0;
        long downgraded = 0;
        for (Verdict verdict : Verdict.values()) {
            long[] counts = inputs.getOrDefault(verdict, new long[4]);
            byVerdict.put(verdict, counts[countColumn]);
            total += counts[countColumn];
            downgraded += counts[downgradedColumn];
        }
        return new Window(total, byVerdict, downgraded, deadLetters);
    }

    private static Instant lastAuditAt(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(LAST_AUDIT); ResultSet rs = query.executeQuery()) {
            return rs.next() ? rs.getObject(1, OffsetDateTime.class).toInstant() : null;
        }
    }

    private static ChainState chain(Connection connection) throws SQLException {
        long sealed;
        long audited;
        try (PreparedStatement query = connection.prepareStatement(CHAIN_COUNTS); ResultSet rs = query.executeQuery()) {
            rs.next();
            sealed = rs.getLong(1);
            audited = rs.getLong(2);
        }
        Long headSeq = null;
        String headHash = null;
        try (PreparedStatement query = connection.prepareStatement(CHAIN_HEAD); ResultSet rs = query.executeQuery()) {
            if (rs.next()) {
                headSeq = rs.getLong(1);
                headHash = HexFormat.of().formatHex(rs.getBytes(2));
            }
        }
        String headLinkBreak = AuditChainVerifier.headLinkBreak(connection);
        ChainVerification last = ChainVerification.newest(connection);
        long sealsSince = last == null || last.throughSeq() == null ? sealed : sealsAfter(connection, last.throughSeq());
        return new ChainState(headLinkBreak, sealed, Math.max(0, audited - sealed), headSeq, headHash, last, sealsSince);
    }

    private static long sealsAfter(Connection connection, long seq) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(SEALS_AFTER)) {
            query.setLong(1, seq);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
