package io.claimguard.cli;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Learns what became of inputs sent to the input queue by watching the audit database, as the service records
 * them: an accepted input has a {@code verification_audit} row keyed by the SHA-256 of its bytes (the one row of all
 * byte-identical inputs), a rejected or failed one a {@code dead_letter} row whose {@code source_ref} is its JMS
 * message id. Nothing else is needed from the service.
 */
final class OutcomeWatcher {

    private static final HexFormat HEX = HexFormat.of();
    private static final long POLL_MILLIS = 100;

    private static final String AUDITS = """
            SELECT encode(input_sha256, 'hex'), id, effective_verdict, model_verdict, array_to_string(guard_reasons, ', '),
                   audited_at
            FROM claimguard.verification_audit
            WHERE input_sha256 IN (SELECT decode(h, 'hex') FROM unnest(CAST(? AS text[])) AS h)
            """;

    private static final String DEAD_LETTERS = """
            SELECT source_ref, id, reason_code, reason
            FROM claimguard.dead_letter
            WHERE source = 'jms' AND source_ref = ANY (CAST(? AS text[]))
            """;

    /** What became of an input. */
    sealed interface Outcome permits Audited, DeadLettered, Pending {
    }

    /**
     * Audited: its own new row, or (when {@code before}) the row of byte-identical bytes audited before it was sent.
     */
    record Audited(long auditId, String effectiveVerdict, String modelVerdict, String guardReasons,
            OffsetDateTime auditedAt, boolean before) implements Outcome {

        /** The verdict as the audit row has it, e.g. {@code LOW_CONFID (model PASS; guard: gatekeeper.fail)}. */
        String verdict() {
            return effectiveVerdict + " (model " + (modelVerdict == null ? "verdict absent or invalid" : modelVerdict)
                    + "; " + (guardReasons.isEmpty() ? "no guard rule fired" : "guard: " + guardReasons) + ")";
        }

        /** The same row, as the outcome of an input that was a duplicate of it. */
        Audited asDuplicate() {
            return new Audited(auditId, effectiveVerdict, modelVerdict, guardReasons, auditedAt, true);
        }

        /** How an input audited before it was sent again is reported. */
        String duplicate() {
            return "duplicate of audit_id " + auditId + " (byte-identical input audited "
                    + auditedAt.toInstant().truncatedTo(ChronoUnit.SECONDS) + "): no new row; its result is forwarded again";
        }
    }

    /** Rejected or failed: recorded in {@code dead_letter} with its reason. */
    record DeadLettered(long deadLetterId, String reasonCode, String reason) implements Outcome {

        /** The reason code and reason on one line (a failure's reason may hold the database's multi-line message). */
        String why() {
            return reasonCode + ": " + reason.strip().replaceAll("\\s*\\R\\s*", " ");
        }
    }

    /** Neither row yet. */
    record Pending(String messageId) implements Outcome {

        String describe() {
            return "pending: sent as " + messageId + ", no audit or dead-letter row yet";
        }
    }

    /** One input sent: its SHA-256 and JMS message id, and its earlier audit row if its bytes were audited before. */
    record Sent(byte[] sha256, String messageId, Audited auditedBefore) {
    }

    private final Connection connection;

    OutcomeWatcher(Connection connection) {
        this.connection = connection;
    }

    /** The audit rows of these inputs' bytes as they are now, by SHA-256 in hex; look them up before sending. */
    Map<String, Audited> auditedBefore(List<byte[]> sha256s) throws SQLException {
        Map<String, Audited> audited = audits(sha256s.stream().map(HEX::formatHex).distinct().toList());
        audited.replaceAll((sha, row) -> row.asDuplicate());
        return audited;
    }

    /**
     * Waits until every input has an audit or dead-letter row, or the timeout is over; returns one outcome per input,
     * in order ({@link Pending} for those still without a row). An input audited before has its outcome at once.
     */
    List<Outcome> await(List<Sent> sent, Duration timeout) throws SQLException {
        Outcome[] outcomes = new Outcome[sent.size()];
        for (int i = 0; i < outcomes.length; i++) {
            Sent input = sent.get(i);
            outcomes[i] = input.auditedBefore() != null ? input.auditedBefore() : new Pending(input.messageId());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Integer> pending = pending(outcomes);
            if (pending.isEmpty()) {
                break;
            }
            Map<String, Audited> audits = audits(pending.stream().map(i -> HEX.formatHex(sent.get(i).sha256())).toList());
            Map<String, DeadLettered> deadLetters = deadLetters(pending.stream().map(i -> sent.get(i).messageId()).toList());
            for (int i : pending) {
                DeadLettered deadLetter = deadLetters.get(sent.get(i).messageId());
                Audited audit = audits.get(HEX.formatHex(sent.get(i).sha256()));
                outcomes[i] = deadLetter != null ? deadLetter : audit != null ? audit : outcomes[i];
            }
            if (System.nanoTime() >= deadline) {
                break;
            }
            pause();
        }
        // an input sent twice in one run made one row: the second one is a duplicate of it
        Set<String> audited = new HashSet<>();
        for (int i = 0; i < outcomes.length; i++) {
            if (outcomes[i] instanceof Audited row && !row.before() && !audited.add(HEX.formatHex(sent.get(i).sha256()))) {
                outcomes[i] = row.asDuplicate();
            }
        }
        return Arrays.asList(outcomes);
    }

    /** 3 when an input has no outcome yet, else 1 when one was dead-lettered, else 0. */
    static int exitCode(List<Outcome> outcomes) {
        if (outcomes.stream().anyMatch(Pending.class::isInstance)) {
            return ExitCodes.UNAVAILABLE;
        }
        return outcomes.stream().anyMatch(DeadLettered.class::isInstance) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** The one line that says which inputs are still pending after the timeout; null when none is. */
    static String pendingSummary(List<String> labels, List<Outcome> outcomes, Duration timeout) {
        List<String> pending = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof Pending) {
                pending.add(labels.get(i));
            }
        }
        return pending.isEmpty() ? null : "no audit or dead-letter row after " + timeout.toMillis() / 1000.0 + " s for "
                + pending.size() + " of " + outcomes.size() + " inputs, still pending: " + String.join(", ", pending)
                + " (is the service running and reading that queue and this database?)";
    }

    private static List<Integer> pending(Outcome[] outcomes) {
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < outcomes.length; i++) {
            if (outcomes[i] instanceof Pending) {
                pending.add(i);
            }
        }
        return pending;
    }

    private Map<String, Audited> audits(List<String> sha256Hex) throws SQLException {
        Map<String, Audited> audits = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(AUDITS)) {
            select.setArray(1, textArray(sha256Hex));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    audits.put(rows.getString(1), new Audited(rows.getLong(2), rows.getString(3), rows.getString(4),
                            rows.getString(5), rows.getObject(6, OffsetDateTime.class), false));
                }
            }
        }
        return audits;
    }

    private Map<String, DeadLettered> deadLetters(List<String> messageIds) throws SQLException {
        Map<String, DeadLettered> deadLetters = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement(DEAD_LETTERS)) {
            select.setArray(1, textArray(messageIds));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    deadLetters.put(rows.getString(1), new DeadLettered(rows.getLong(2), rows.getString(3),
                            rows.getString(4)));
                }
            }
        }
        return deadLetters;
    }

    private Array textArray(List<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray(String[]::new));
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolFailure("interrupted while waiting for the inputs' outcomes", e);
        }
    }
}
