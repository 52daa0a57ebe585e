package io.claimguard.harness.faults;

import io.claimguard.domain.OutboxName;
import io.claimguard.intake.KafkaIntakeRoute;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.testkit.HarnessInput.Channel;
import io.claimguard.testkit.HarnessInput.Kind;
import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.KafkaClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Accounts for every input once the backlog has drained: from the audit tables, the consumed output and
 * dead-letter queues (or topics), the outbox and the inbox's {@code .done/} and {@code .error/}. Inputs are matched
 * by the SHA-256 of their bytes, as the service keys them; byte-identical inputs (a pair) share one audit row.
 */
final class Accounting {

    /**
     * What ClaimGuard sent: a result or a dead-letter copy, read from a JMS queue or a Kafka topic.
     *
     * @param key the harness's tag of a JMS message (its property) or a Kafka record's key (a dead-letter copy keeps
     *     the input's, its tag; a result has its request_id)
     * @param reason a dead-letter copy's {@code ClaimGuardDeadLetterReason}: the reason code, a colon and the reason
     */
    record Sent(byte[] body, Long auditId, String key, String reason) {

        static Sent of(JmsClient.Received message) {
            return new Sent(message.body(), message.auditId(), message.tag(), message.deadLetterReason());
        }

        static Sent of(ConsumerRecord<byte[], byte[]> record) {
            String auditId = KafkaClient.header(record, ResultProperties.AUDIT_ID);
            return new Sent(record.value(), auditId == null ? null : Long.valueOf(auditId), KafkaClient.text(record.key()),
                    KafkaClient.header(record, KafkaIntakeRoute.REASON_HEADER));
        }
    }

    /**
     * The figures of the reckoning.
     *
     * @param audited distinct valid inputs with exactly one audit row
     * @param lost inputs with neither their audit row (valid) nor their dead_letter row (rejected, poison)
     * @param duplicatedAuditRows audit rows beyond one per distinct valid input, and rows for no valid input
     * @param otherProblems every other broken promise (not forwarded, file not moved, wrong reason, ...)
     */
    record Outcomes(
            long audited,
            long auditRows,
            long claimCheckRows,
            boolean claimChecksComplete,
            long deadLettered,
            long deadLetteredRejected,
            long deadLetteredPoison,
            long deadLetterRows,
            boolean deadLetterBytesExact,
            long forwarded,
            long outputMessages,
            long reforwarded,
            long outboxFiles,
            long doneFiles,
            long errorFiles,
            long dlqMessages,
            long leftInInbox,
            long lost,
            long duplicatedAuditRows,
            long otherProblems) {
    }

    record Result(Outcomes outcomes, List<String> problems) {
    }

    private record AuditRow(long id, String requestId, long claimChecks, String sourceRef) {
    }

    private record DeadLetterRow(String reasonCode, byte[] payload, String source, String sourceRef) {
    }

    private final Map<String, String> sourceRefs;
    private final List<String> problems = new ArrayList<>();
    private long otherProblems;

    private Accounting(Map<String, String> sourceRefs) {
        this.sourceRefs = sourceRefs;
    }

    /**
     * @param outputs the results, from the output queue or topic
     * @param deadLetterCopies the dead-letter queue's messages or the dead-letter topic's records
     * @param sourceRefs the {@code source_ref} the service gives each input sent by JMS (its message id) or Kafka (its
     *     topic, partition and offset), by tag
     */
    static Result account(Backlog backlog, Connection sql, List<Sent> outputs, List<Sent> deadLetterCopies, Path inbox,
            Path outbox, Map<String, String> sourceRefs) throws SQLException, IOException {
        return new Accounting(sourceRefs).reckon(backlog, sql, outputs, deadLetterCopies, inbox, outbox);
    }

    private Result reckon(Backlog backlog, Connection sql, List<Sent> outputs, List<Sent> deadLetterCopies, Path inbox,
            Path outbox) throws SQLException, IOException {
        Map<String, List<AuditRow>> auditRows = auditRows(sql);
        Map<String, List<DeadLetterRow>> deadLetters = deadLetters(sql);
        // Map, Stream and Object messages are dead-lettered with their body as the broker holds it: matched by id and tag
        Map<String, HarnessInput> unsupportedByMessageId = new HashMap<>();
        Set<String> unsupportedTags = new HashSet<>();
        backlog.all().stream().filter(input -> input.kind() == Kind.UNSUPPORTED).forEach(input -> {
            unsupportedByMessageId.put(sourceRefs.get(input.tag()), input);
            unsupportedTags.add(input.tag());
        });
        Map<String, List<DeadLetterRow>> unsupportedLetters = new HashMap<>();
        deadLetters.values().forEach(rows -> rows.stream().filter(row -> unsupportedByMessageId.containsKey(row.sourceRef()))
                .forEach(row -> unsupportedLetters.computeIfAbsent(row.sourceRef(), ref -> new ArrayList<>()).add(row)));
        deadLetters.replaceAll((digest, rows) -> rows.stream()
                .filter(row -> !unsupportedByMessageId.containsKey(row.sourceRef())).toList());
        deadLetters.values().removeIf(List::isEmpty);
        Set<String> unsupportedOnDlq = new HashSet<>();
        Map<String, List<Sent>> copiesByDigest = new HashMap<>();
        for (Sent copy : deadLetterCopies) {
            if (copy.key() != null && unsupportedTags.contains(copy.key())) {
                unsupportedOnDlq.add(copy.key());
            } else {
                copiesByDigest.computeIfAbsent(HarnessInput.sha256(copy.body()), digest -> new ArrayList<>()).add(copy);
            }
        }
        Map<Long, Integer> forwardsByAuditId = new HashMap<>();
        for (Sent output : outputs) {
            if (output.auditId() == null) {
                problem("an output message without ClaimGuardAuditId: " + abbreviated(output.body()));
            } else {
                forwardsByAuditId.merge(output.auditId(), 1, Integer::sum);
            }
        }
        Set<String> outboxFiles = finalFileNames(outbox);
        Path done = inbox.resolve(".done");
        Path error = inbox.resolve(".error");

        Map<String, List<HarnessInput>> inputsByDigest = new LinkedHashMap<>();
        backlog.all().stream().filter(input -> input.kind() != Kind.UNSUPPORTED)
                .forEach(input -> inputsByDigest.computeIfAbsent(input.sha256(), digest -> new ArrayList<>()).add(input));

        long audited = 0;
        long lost = 0;
        long duplicatedAuditRows = 0;
        boolean claimChecksComplete = true;
        long deadLetteredRejected = 0;
        long deadLetteredPoison = 0;
        boolean deadLetterBytesExact = true;
        long forwarded = 0;
        for (Map.Entry<String, List<HarnessInput>> entry : inputsByDigest.entrySet()) {
            String digest = entry.getKey();
            List<HarnessInput> copies = entry.getValue();
            HarnessInput first = copies.get(0);
            List<AuditRow> rows = auditRows.getOrDefault(digest, List.of());
            List<DeadLetterRow> letters = deadLetters.getOrDefault(digest, List.of());
            if (first.kind() == Kind.VALID) {
                if (!letters.isEmpty()) {
                    problem(tags(copies) + ": valid, but dead-lettered as " + letters.get(0).reasonCode());
                }
                if (rows.isEmpty()) {
                    lost += copies.size();
                    problems.add("LOST " + tags(copies) + ": valid, but no audit row");
                    continue;
                }
                audited++;
                duplicatedAuditRows += rows.size() - 1;
                if (rows.size() > 1) {
                    problems.add("DUPLICATED " + tags(copies) + ": " + rows.size() + " audit rows");
                }
                AuditRow row = rows.get(0);
                expectSourceRef(copies, row.sourceRef(), "audit " + row.id());
                if (row.claimChecks() != first.claimChecks()) {
                    claimChecksComplete = false;
                    problem(tags(copies) + ": audit " + row.id() + " has " + row.claimChecks() + " claim_check rows, expected "
                            + first.claimChecks());
                }
                int forwards = forwardsByAuditId.getOrDefault(row.id(), 0);
                if (forwards > 0) {
                    forwarded++;
                }
                if (forwards < copies.size()) {
                    // every copy is forwarded once it is acknowledged; a crash can only add forwards
                    problem(tags(copies) + ": audit " + row.id() + " forwarded " + forwards + " times for " + copies.size()
                            + " input(s)");
                }
                for (HarnessInput copy : copies) {
                    if (copy.channel() == Channel.FILE) {
                        expectMovedFile(copy, done, ".done/");
                        String result = OutboxName.of(copy.requestId(), row.id());
                        if (!outboxFiles.contains(result)) {
                            problem(copy.tag() + ": no outbox file " + result);
                        }
                    }
                }
            } else {
                HarnessInput input = first;
                if (!rows.isEmpty()) {
                    duplicatedAuditRows += rows.size();
                    problems.add("WRONGLY AUDITED " + input.tag() + ": " + input.kind() + " input has audit row " + rows.get(0).id());
                }
                if (letters.isEmpty()) {
                    lost++;
                    problems.add("LOST " + input.tag() + ": " + input.kind() + " input has no dead_letter row");
                    continue;
                }
                if (input.kind() == Kind.POISON) {
                    deadLetteredPoison++;
                } else {
                    deadLetteredRejected++;
                }
                if (letters.size() > 1) {
                    problem(input.tag() + ": " + letters.size() + " dead_letter rows");
                }
                DeadLetterRow letter = letters.get(0);
                expectSourceRef(copies, letter.sourceRef(), "its dead_letter row");
                if (!input.expectedReasonCode().equals(letter.reasonCode())) {
                    problem(input.tag() + ": dead-lettered as " + letter.reasonCode() + ", expected " + input.expectedReasonCode());
                }
                if (!Arrays.equals(letter.payload(), input.bytes())) {
                    deadLetterBytesExact = false;
                    problem(input.tag() + ": dead_letter.payload differs from the bytes sent");
                }
                if (input.channel() == Channel.FILE) {
                    expectMovedFile(input, error, ".error/");
                } else {
                    expectDeadLetterCopy(input, copiesByDigest.getOrDefault(digest, List.of()));
                }
            }
        }

        for (HarnessInput input : unsupportedByMessageId.values()) {
            List<DeadLetterRow> letters = unsupportedLetters.getOrDefault(sourceRefs.get(input.tag()), List.of());
            if (letters.isEmpty()) {
                lost++;
                problems.add("LOST " + input.tag() + ": " + input.body() + " message has no dead_letter row");
                continue;
            }
            deadLetteredRejected++;
            if (letters.size() > 1) {
                problem(input.tag() + ": " + letters.size() + " dead_letter rows");
            }
            if (!input.expectedReasonCode().equals(letters.get(0).reasonCode())) {
                problem(input.tag() + ": dead-lettered as " + letters.get(0).reasonCode() + ", expected "
                        + input.expectedReasonCode());
            }
            if (!unsupportedOnDlq.contains(input.tag())) {
                problem(input.tag() + ": " + input.body() + " message not on the dead-letter queue with its tag");
            }
        }

        for (Map.Entry<String, List<AuditRow>> entry : auditRows.entrySet()) {
            if (!inputsByDigest.containsKey(entry.getKey())) {
                duplicatedAuditRows += entry.getValue().size();
                problems.add("UNEXPECTED audit row " + entry.getValue().get(0).id() + " (request_id "
                        + entry.getValue().get(0).requestId() + ") for bytes the harness never sent");
            }
        }
        for (Map.Entry<String, List<DeadLetterRow>> entry : deadLetters.entrySet()) {
            if (!inputsByDigest.containsKey(entry.getKey())) {
                problem("a dead_letter row (" + entry.getValue().get(0).source() + " " + entry.getValue().get(0).sourceRef()
                        + ") for bytes the harness never sent");
            }
        }
        for (String digest : copiesByDigest.keySet()) {
            List<HarnessInput> copies = inputsByDigest.get(digest);
            if (copies == null || copies.get(0).kind() == Kind.VALID) {
                problem("the dead-letter queue or topic holds " + (copies == null ? "bytes the harness never sent"
                        : "valid input " + tags(copies)) + " (moved by the broker after too many deliveries?)");
            }
        }
        List<String> leftovers = inboxLeftovers(inbox);
        leftovers.forEach(name -> problem("left in the inbox: " + name));

        long validInputs = backlog.count(Kind.VALID);
        long auditRowCount = auditRows.values().stream().mapToLong(List::size).sum();
        long claimCheckRows = countRows(sql, "SELECT count(*) FROM claimguard.claim_check");
        long deadLetterRows = deadLetters.values().stream().mapToLong(List::size).sum()
                + unsupportedLetters.values().stream().mapToLong(List::size).sum();
        Outcomes outcomes = new Outcomes(audited, auditRowCount, claimCheckRows, claimChecksComplete,
                deadLetteredRejected + deadLetteredPoison, deadLetteredRejected, deadLetteredPoison, deadLetterRows,
                deadLetterBytesExact, forwarded, outputs.size(), Math.max(0, outputs.size() - validInputs),
                outboxFiles.size(), finalFileNames(done).size(), finalFileNames(error).size(), deadLetterCopies.size(),
                leftovers.size(), lost, duplicatedAuditRows, otherProblems);
        return new Result(outcomes, problems);
    }

    /** Where the service names an input's origin (JMS, Kafka), the row must name one of the copies sent. */
    private void expectSourceRef(List<HarnessInput> copies, String sourceRef, String row) {
        List<String> sent = copies.stream().map(copy -> sourceRefs.get(copy.tag())).toList();
        if (!sent.contains(null) && !sent.contains(sourceRef)) {
            problem(tags(copies) + ": " + row + " has source_ref " + sourceRef + ", sent as " + String.join(" and ", sent));
        }
    }

    /** Its copy on the dead-letter queue or topic: the exact bytes (its digest), its tag and its reason code. */
    private void expectDeadLetterCopy(HarnessInput input, List<Sent> copies) {
        if (copies.isEmpty()) {
            problem(input.tag() + ": not on the dead-letter queue or topic");
            return;
        }
        Sent copy = copies.get(0);
        if (!input.tag().equals(copy.key())) {
            problem(input.tag() + ": its dead-letter copy is tagged or keyed " + copy.key());
        }
        if (copy.reason() == null || !copy.reason().startsWith(input.expectedReasonCode() + ": ")) {
            problem(input.tag() + ": its dead-letter copy gives the reason " + copy.reason() + ", expected "
                    + input.expectedReasonCode());
        }
    }

    private void expectMovedFile(HarnessInput input, Path directory, String where) throws IOException {
        Path moved = directory.resolve(input.fileName());
        if (!Files.isRegularFile(moved)) {
            problem(input.tag() + ": not in " + where);
        } else if (!Arrays.equals(Files.readAllBytes(moved), input.bytes())) {
            problem(input.tag() + ": " + where + input.fileName() + " differs from the bytes written");
        }
    }

    private void problem(String text) {
        otherProblems++;
        problems.add(text);
    }

    private static Map<String, List<AuditRow>> auditRows(Connection sql) throws SQLException {
        Map<String, List<AuditRow>> rows = new HashMap<>();
        try (PreparedStatement statement = sql.prepareStatement("""
                SELECT encode(a.input_sha256, 'hex') AS digest, a.id, a.request_id, a.source_ref,
                       (SELECT count(*) FROM claimguard.claim_check c WHERE c.audit_id = a.id) AS claim_checks
                FROM claimguard.verification_audit a""");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rows.computeIfAbsent(result.getString("digest"), digest -> new ArrayList<>())
                        .add(new AuditRow(result.getLong("id"), result.getString("request_id"), result.getLong("claim_checks"),
                                result.getString("source_ref")));
            }
        }
        return rows;
    }

    private static Map<String, List<DeadLetterRow>> deadLetters(Connection sql) throws SQLException {
        Map<String, List<DeadLetterRow>> rows = new HashMap<>();
        try (PreparedStatement statement = sql.prepareStatement("""
                SELECT encode(payload_sha256, 'hex') AS digest, reason_code, payload, source, source_ref
                FROM claimguard.dead_letter""");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rows.computeIfAbsent(result.getString("digest"), digest -> new ArrayList<>())
                        .add(new DeadLetterRow(result.getString("reason_code"), result.getBytes("payload"),
                                result.getString("source"), result.getString("source_ref")));
            }
        }
        return rows;
    }

    static long countRows(Connection sql, String query) throws SQLException {
        try (PreparedStatement statement = sql.prepareStatement(query); ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getLong(1);
        }
    }

    /**
     * Names of the complete files in a folder: not the service's dot-named temporary files, nor the {@code .reason}
     * files beside those in {@code .error/}.
     */
    private static Set<String> finalFileNames(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            Set<String> names = new HashSet<>();
            files.filter(Files::isRegularFile).map(file -> file.getFileName().toString())
                    .filter(name -> !name.startsWith(".") && name.endsWith(".json")).forEach(names::add);
            return names;
        }
    }

    /** Anything in the inbox itself but the {@code .done/} and {@code .error/} folders: waiting files, locks. */
    static List<String> inboxLeftovers(Path inbox) throws IOException {
        try (Stream<Path> entries = Files.list(inbox)) {
            return entries.map(entry -> entry.getFileName().toString())
                    // the leader's lock folder of a shared inbox is the service's own, not an input
                    .filter(name -> !name.equals(".done") && !name.equals(".error") && !name.equals(".claimguard-leader"))
                    .sorted().toList();
        }
    }

    private static String tags(List<HarnessInput> copies) {
        return copies.size() == 1 ? copies.get(0).tag()
                : copies.stream().map(copy -> copy.tag() + " (" + copy.channel() + ")").toList().toString();
    }

    private static String abbreviated(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
