package io.claimguard.harness.faults;

import io.claimguard.domain.OutboxName;
import io.claimguard.harness.faults.HostileInputs.Channel;
import io.claimguard.harness.faults.HostileInputs.Entry;
import io.claimguard.harness.faults.HostileInputs.Expect;
import io.claimguard.harness.faults.HostileInputs.HostileInput;
import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.JmsClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Accounts for every input of a hostile run once it has drained. Inputs are grouped by the SHA-256 of their bytes, as
 * the service keys them: an accepted body makes one audit row however many copies came, each copy forwarded once; a
 * rejected body makes one dead_letter row per copy (per {@code source_ref}). Every file must have ended once: its bytes
 * in {@code .done/} (audited) or {@code .error/} (dead-lettered) as often as it was dropped, and nowhere else.
 */
final class HostileAccounting {

    /** A log line's minute, as the service's console pattern starts: {@code 2026-12-04T23:30:01.123Z}. */
    private static final Pattern LOG_MINUTE = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2})");
    private static final String DEAD_LETTER_FILE_TYPE = "file_type.unsupported";
    private static final String PROCESSING_FAILED = "processing_failed";

    /**
     * What a SIGKILL left: the audit rows committed by then and the names in the inbox. A file that was still there
     * with its audit row committed is processed again after the restart and may be forwarded again: at-least-once
     * across a crash, not a retry forwarding twice.
     */
    record Kill(int number, double atShare, long killedPid, long restartedPid, double secondsToReady, Set<Long> auditIds,
            Set<String> inboxNames) {
    }

    /**
     * @param reforwardedForFiles results sent more than once for one file that no kill explains: must be 0
     * @param forwardedAgainAfterKill results sent again for inputs a kill caught between their commit and their end
     */
    record Outcomes(long bodies, long audited, long auditRows, long deadLettered, long deadLetterRows, long setAside,
            long lost, long duplicatedRows, long outputMessages, long reforwardedForFiles, long forwardedAgainAfterKill,
            long notForwarded, long doneFiles, long errorFiles, long filesNotEnded, long filesEndedTwice,
            long leftInInbox, long ignoredLeftAlone, long linksSetAsideUnopened, long fifosSetAside,
            long outsideFilesRead, long outboxFiles, long outboxHiddenNames, long otherProblems) {
    }

    /**
     * @param worstMinute the minute with the most lines
     * @param worstLines its lines
     * @param worstEnded inputs that ended in it (rows committed, duplicates absorbed, entries left alone)
     * @param worstBound its bound: {@value HostileOptions#LOG_LINES_PER_INPUT} per input that ended plus the allowance
     * @param worstAboveInputs the most lines any minute held beyond {@value HostileOptions#LOG_LINES_PER_INPUT} per input
     * @param minutesOverBound minutes whose lines exceed their bound: must be 0
     * @param stackTraceLines lines of stack traces (they start with a tab, {@code Caused by:} or {@code Suppressed:})
     * @param splitLines other lines without a timestamp: a line an input's value (a file name) split, which could
     *     forge a log line; part 4 of issue 26 escapes those values, until then it is a figure, not a check
     */
    record Logs(long lines, int minutes, String worstMinute, long worstLines, long worstEnded, long worstBound,
            long worstAboveInputs, int minutesOverBound, long stackTraceLines, long splitLines, long warnLines,
            long leftAloneLines, int allowance) {
    }

    record Result(Outcomes outcomes, Logs logs, List<String> problems) {
    }

    private record AuditRow(long id, String requestId, String sourceRef) {
    }

    private record DeadLetterRow(long id, String reasonCode, String sourceRef, long payloadSize) {
    }

    private final List<String> problems = new ArrayList<>();
    private long otherProblems;

    private HostileAccounting() {
    }

    static Result account(HostileInputs inputs, Connection sql, List<JmsClient.Received> outputs,
            List<JmsClient.Received> deadLetterCopies, Path inbox, Path outbox, Map<String, String> messageIds,
            List<Kill> kills, Path logs, int allowance) throws SQLException, IOException {
        HostileAccounting accounting = new HostileAccounting();
        Outcomes outcomes = accounting.reckon(inputs, sql, outputs, inbox, outbox, messageIds, kills);
        Logs logLines = accounting.logs(sql, logs, allowance);
        return new Result(outcomes, logLines, accounting.problems);
    }

    private Outcomes reckon(HostileInputs inputs, Connection sql, List<JmsClient.Received> outputs, Path inbox,
            Path outbox, Map<String, String> messageIds, List<Kill> kills) throws SQLException, IOException {
        Map<String, List<AuditRow>> audits = auditRows(sql);
        List<DeadLetterRow> fileTypeRows = new ArrayList<>();
        Map<String, List<DeadLetterRow>> letters = deadLetters(sql, fileTypeRows);
        Map<Long, Integer> forwards = new HashMap<>();
        outputs.forEach(output -> {
            if (output.auditId() == null) {
                problem("an output message without ClaimGuardAuditId");
            } else {
                forwards.merge(output.auditId(), 1, Integer::sum);
            }
        });
        Set<String> outboxNames = Set.copyOf(names(outbox));

        List<HostileInput> all = new ArrayList<>(inputs.inputs());
        all.addAll(inputs.lateCopies());
        Map<String, List<HostileInput>> groups = new LinkedHashMap<>();
        all.stream().filter(input -> input.expect() != Expect.IGNORED && input.expect() != Expect.SET_ASIDE)
                .forEach(input -> groups.computeIfAbsent(input.sha256(), digest -> new ArrayList<>()).add(input));

        long audited = 0;
        long deadLettered = 0;
        long lost = 0;
        long duplicated = 0;
        long reforwarded = 0;
        long againAfterKill = 0;
        long notForwarded = 0;
        Map<String, Integer> expectedDone = new HashMap<>();
        Map<String, Integer> expectedError = new HashMap<>();
        for (Map.Entry<String, List<HostileInput>> group : groups.entrySet()) {
            String digest = group.getKey();
            List<HostileInput> copies = group.getValue();
            List<AuditRow> rows = audits.getOrDefault(digest, List.of());
            List<DeadLetterRow> dead = letters.getOrDefault(digest, List.of());
            boolean mustAudit = copies.stream().anyMatch(copy -> copy.expect() == Expect.AUDITED);
            boolean mustReject = copies.stream().anyMatch(copy -> copy.expect() == Expect.REJECTED);
            long fileCopies = copies.stream().filter(copy -> copy.channel() == Channel.FILE).count();
            if (!rows.isEmpty() && !dead.isEmpty()) {
                problem(tags(copies) + ": both audited (" + rows.get(0).id() + ") and dead-lettered (" + dead.get(0).reasonCode() + ")");
            }
            if (!rows.isEmpty()) {
                audited++;
                duplicated += rows.size() - 1;
                if (rows.size() > 1) {
                    problems.add("DUPLICATED " + tags(copies) + ": " + rows.size() + " audit rows");
                }
                AuditRow row = rows.get(0);
                if (mustReject) {
                    problem(tags(copies) + ": must be rejected, but has audit row " + row.id());
                }
                expectSourceRef(copies, row.sourceRef(), messageIds, "audit " + row.id());
                int sent = forwards.getOrDefault(row.id(), 0);
                if (sent < copies.size()) {
                    notForwarded += copies.size() - sent;
                    problem(tags(copies) + ": audit " + row.id() + " forwarded " + sent + " times for " + copies.size() + " copies");
                } else if (sent > copies.size()) {
                    long explained = explainedByKills(copies, row.id(), kills);
                    long extra = sent - copies.size();
                    againAfterKill += Math.min(extra, explained);
                    if (extra > explained) {
                        reforwarded += extra - explained;
                        problems.add("RE-FORWARDED " + tags(copies) + ": audit " + row.id() + " forwarded " + sent
                                + " times for " + copies.size() + " copies, " + explained + " explained by a kill");
                    }
                }
                expectedDone.merge(digest, (int) fileCopies, Integer::sum);
                for (HostileInput copy : copies) {
                    if (copy.channel() == Channel.FILE && !outboxNames.contains(OutboxName.of(row.requestId(), row.id()))) {
                        problem(copy.tag() + ": no outbox file " + OutboxName.of(row.requestId(), row.id()));
                    }
                }
            } else if (!dead.isEmpty()) {
                deadLettered++;
                if (mustAudit) {
                    problem(tags(copies) + ": valid, but dead-lettered as " + dead.get(0).reasonCode());
                }
                Map<String, List<DeadLetterRow>> byRef = new HashMap<>();
                dead.forEach(letter -> byRef.computeIfAbsent(letter.sourceRef(), ref -> new ArrayList<>()).add(letter));
                for (HostileInput copy : copies) {
                    List<DeadLetterRow> own = byRef.remove(reference(copy, messageIds));
                    if (own == null) {
                        lost++;
                        problems.add("LOST " + copy.tag() + ": its bytes are dead-lettered, but not from it");
                        continue;
                    }
                    duplicated += own.size() - 1;
                    if (own.size() > 1) {
                        problems.add("DUPLICATED " + copy.tag() + ": " + own.size() + " dead_letter rows");
                    }
                    if (mustReject && PROCESSING_FAILED.equals(own.get(0).reasonCode())) {
                        problem(copy.tag() + ": must be rejected, but failed processing");
                    }
                }
                byRef.values().forEach(rest -> problem(tags(copies) + ": a dead_letter row from no copy, source_ref "
                        + rest.get(0).sourceRef()));
                expectedError.merge(digest, (int) fileCopies, Integer::sum);
            } else {
                lost += copies.size();
                problems.add("LOST " + tags(copies) + ": no audit row, no dead_letter row");
            }
        }
        audits.keySet().stream().filter(digest -> !groups.containsKey(digest)).forEach(digest -> {
            problem("UNEXPECTED audit row " + audits.get(digest).get(0).id() + " (request_id "
                    + audits.get(digest).get(0).requestId() + ") for bytes the harness never sent");
        });
        letters.keySet().stream().filter(digest -> !groups.containsKey(digest)).forEach(digest -> problem(
                "UNEXPECTED dead_letter row " + letters.get(digest).get(0).id() + " for bytes the harness never sent"));

        // every file ended once: its bytes in .done/ or .error/ as often as it was dropped
        Map<String, Integer> inDone = digests(inbox.resolve(".done"), false);
        Map<String, Integer> inError = digests(inbox.resolve(".error"), true);
        long[] notEnded = {0};
        long[] endedTwice = {0};
        compareEnds(expectedDone, inDone, ".done/", groups, notEnded, endedTwice);
        compareEnds(expectedError, inError, ".error/", groups, notEnded, endedTwice);

        // links and FIFOs: one file_type.unsupported row each, no bytes, moved as they are; the outside untouched
        List<HostileInput> setAside = inputs.inputs().stream().filter(input -> input.expect() == Expect.SET_ASIDE).toList();
        Map<String, List<DeadLetterRow>> fileTypeByRef = new HashMap<>();
        fileTypeRows.forEach(row -> fileTypeByRef.computeIfAbsent(row.sourceRef(), ref -> new ArrayList<>()).add(row));
        for (HostileInput entry : setAside) {
            List<DeadLetterRow> own = fileTypeByRef.remove(entry.nameAsRead());
            if (own == null) {
                lost++;
                problems.add("LOST " + entry.tag() + " (" + entry.entry() + "): no file_type.unsupported row");
            } else {
                duplicated += own.size() - 1;
                if (own.get(0).payloadSize() != 0) {
                    problem(entry.tag() + ": its file_type.unsupported row holds " + own.get(0).payloadSize() + " bytes");
                }
            }
        }
        fileTypeByRef.keySet().forEach(ref -> problem("a file_type.unsupported row for an entry never made: " + ref));
        long outsideRead = 0;
        for (HostileInput link : setAside.stream().filter(input -> input.entry() == Entry.SYMLINK).toList()) {
            String secret = HostileRun.secret(link);
            if (!Files.isRegularFile(link.outsideTarget(), LinkOption.NOFOLLOW_LINKS)
                    || !Files.readString(link.outsideTarget()).equals(secret)) {
                outsideRead++;
                problem(link.tag() + ": the file outside the inbox was moved or changed");
            }
            if (rowsHolding(sql, HostileRun.secretRequestId(link))) {
                outsideRead++;
                problems.add("READ THROUGH A LINK " + link.tag() + ": the outside file's bytes are in a row");
            }
        }
        long linksInError = count(inbox.resolve(".error"), Files::isSymbolicLink);
        long fifosInError = count(inbox.resolve(".error"), path -> attributes(path).isOther());
        long links = setAside.stream().filter(input -> input.entry() == Entry.SYMLINK).count();
        long fifos = setAside.size() - links;
        if (linksInError != links) {
            problem(linksInError + " links in .error/, " + links + " made");
        }
        if (fifosInError != fifos) {
            problem(fifosInError + " FIFOs in .error/, " + fifos + " made");
        }

        // what the service leaves alone stays, once; nothing else stays
        Map<String, Integer> ignored = new TreeMap<>();
        inputs.inputs().stream().filter(input -> input.expect() == Expect.IGNORED)
                .forEach(input -> ignored.merge(input.nameAsRead(), 1, Integer::sum));
        Map<String, Integer> left = new TreeMap<>();
        inboxEntries(inbox).forEach(name -> left.merge(name, 1, Integer::sum));
        long leftInInbox = 0;
        for (Map.Entry<String, Integer> entry : left.entrySet()) {
            int extra = entry.getValue() - ignored.getOrDefault(entry.getKey(), 0);
            if (extra > 0) {
                leftInInbox += extra;
                problems.add("NOT ENDED: left in the inbox: " + printable(entry.getKey()));
            }
        }
        ignored.forEach((name, count) -> {
            if (left.getOrDefault(name, 0) < count) {
                problem("an entry the service must leave alone is gone from the inbox: " + printable(name));
            }
        });

        long hiddenOutbox = outboxNames.stream().filter(name -> name.startsWith(".")).count();
        outboxNames.stream().filter(name -> name.startsWith(".")).limit(10)
                .forEach(name -> problem("an outbox name starts with a dot: " + printable(name)));
        long deadLetterRows = letters.values().stream().mapToLong(List::size).sum() + fileTypeRows.size();
        long auditRows = audits.values().stream().mapToLong(List::size).sum();
        return new Outcomes(groups.size(), audited, auditRows, deadLettered, deadLetterRows, setAside.size(), lost,
                duplicated, outputs.size(), reforwarded, againAfterKill, notForwarded,
                inDone.values().stream().mapToLong(Integer::longValue).sum(),
                inError.values().stream().mapToLong(Integer::longValue).sum(), notEnded[0], endedTwice[0], leftInInbox,
                ignored.values().stream().mapToLong(Integer::longValue).sum(), links - Math.min(links, outsideRead),
                fifosInError, outsideRead, outboxNames.size(), hiddenOutbox, otherProblems);
    }

    /**
     * Extra results a kill explains: each JMS copy may be delivered again after a kill (at-least-once); each file copy
     * whose audit row was committed before a kill while it was still in the inbox is taken again after the restart.
     */
    private static long explainedByKills(List<HostileInput> copies, long auditId, List<Kill> kills) {
        long explained = 0;
        for (Kill kill : kills) {
            for (HostileInput copy : copies) {
                if (copy.channel() == Channel.JMS
                        || kill.auditIds().contains(auditId) && kill.inboxNames().contains(copy.nameAsRead())) {
                    explained++;
                }
            }
        }
        return explained;
    }

    private void compareEnds(Map<String, Integer> expected, Map<String, Integer> found, String folder,
            Map<String, List<HostileInput>> groups, long[] notEnded, long[] endedTwice) {
        for (Map.Entry<String, Integer> entry : expected.entrySet()) {
            int there = found.getOrDefault(entry.getKey(), 0);
            if (there < entry.getValue()) {
                notEnded[0] += entry.getValue() - there;
                problems.add("NOT ENDED " + tags(groups.get(entry.getKey())) + ": " + there + " of " + entry.getValue()
                        + " file copies in " + folder);
            } else if (there > entry.getValue()) {
                endedTwice[0] += there - entry.getValue();
                problems.add("ENDED TWICE " + tags(groups.get(entry.getKey())) + ": " + there + " file copies in " + folder
                        + ", " + entry.getValue() + " dropped");
            }
        }
        found.keySet().stream().filter(digest -> !expected.containsKey(digest)).forEach(digest -> {
            endedTwice[0] += found.get(digest);
            problems.add("ENDED WRONGLY: " + found.get(digest) + " file(s) in " + folder + " with bytes that belong "
                    + (groups.containsKey(digest) ? "elsewhere: " + tags(groups.get(digest)) : "to no file dropped"));
        });
    }

    /** The lines the service logged, per minute, against the bound. */
    private Logs logs(Connection sql, Path logs, int allowance) throws IOException, SQLException {
        Map<String, Long> lines = new TreeMap<>();
        Map<String, Long> ended = new TreeMap<>();
        long total = 0;
        long stackTraces = 0;
        long split = 0;
        long warnings = 0;
        long leftAlone = 0;
        List<Path> files;
        try (Stream<Path> all = Files.walk(logs)) {
            files = all.filter(path -> path.getFileName().toString().matches("service-\\d+\\.log")).sorted().toList();
        }
        for (Path file : files) {
            String minute = null;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Matcher stamp = LOG_MINUTE.matcher(line);
                if (stamp.find()) {
                    minute = stamp.group(1) + "T" + stamp.group(2);
                } else if (line.startsWith("\t") || line.startsWith("Caused by:") || line.startsWith("Suppressed:")) {
                    stackTraces++;
                } else {
                    split++;
                }
                if (minute == null) {
                    continue;
                }
                total++;
                lines.merge(minute, 1L, Long::sum);
                if (line.contains(" WARN ")) {
                    warnings++;
                }
                // one line per input by design: a duplicate absorbed, an entry left alone
                boolean leftAloneLine = line.contains("is left alone:");
                if (leftAloneLine) {
                    leftAlone++;
                }
                if (leftAloneLine || line.contains("io.claimguard.audit.summary") && line.contains(" duplicate request_id=")) {
                    ended.merge(minute, 1L, Long::sum);
                }
            }
        }
        try (PreparedStatement statement = sql.prepareStatement("""
                SELECT minute, count(*) FROM (
                    SELECT to_char(audited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS minute FROM claimguard.verification_audit
                    UNION ALL
                    SELECT to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') FROM claimguard.dead_letter) rows
                GROUP BY minute""");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                ended.merge(result.getString(1), result.getLong(2), Long::sum);
            }
        }
        String worstMinute = "";
        long worstLines = 0;
        long worstAbove = 0;
        int over = 0;
        for (Map.Entry<String, Long> minute : lines.entrySet()) {
            long endedThen = ended.getOrDefault(minute.getKey(), 0L);
            long bound = HostileOptions.LOG_LINES_PER_INPUT * endedThen + allowance;
            worstAbove = Math.max(worstAbove, minute.getValue() - HostileOptions.LOG_LINES_PER_INPUT * endedThen);
            if (minute.getValue() > worstLines) {
                worstLines = minute.getValue();
                worstMinute = minute.getKey();
            }
            if (minute.getValue() > bound) {
                over++;
                problems.add("LOG FLOOD: " + minute.getValue() + " lines in the minute " + minute.getKey() + " (UTC), bound "
                        + bound + " for " + endedThen + " inputs ended");
            }
        }
        long worstEnded = ended.getOrDefault(worstMinute, 0L);
        return new Logs(total, lines.size(), worstMinute, worstLines, worstEnded,
                HostileOptions.LOG_LINES_PER_INPUT * worstEnded + allowance, worstAbove, over, stackTraces, split, warnings,
                leftAlone, allowance);
    }

    /** Whether a dead_letter row's bytes, or an audit row's request_id, hold what only the outside file holds. */
    private static boolean rowsHolding(Connection sql, String requestId) throws SQLException {
        try (PreparedStatement statement = sql.prepareStatement("""
                SELECT (SELECT count(*) FROM claimguard.dead_letter WHERE position(? IN payload) > 0)
                     + (SELECT count(*) FROM claimguard.verification_audit WHERE request_id = ?)""")) {
            statement.setBytes(1, requestId.getBytes(StandardCharsets.UTF_8));
            statement.setString(2, requestId);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1) > 0;
            }
        }
    }

    static List<Long> auditIds(Connection sql) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement statement = sql.prepareStatement("SELECT id FROM claimguard.verification_audit");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                ids.add(result.getLong(1));
            }
        }
        return ids;
    }

    /** The inbox's entries as Java reads their names, but the service's own folders. */
    static List<String> inboxEntries(Path inbox) throws IOException {
        return names(inbox).stream()
                .filter(name -> !name.equals(".done") && !name.equals(".error") && !name.equals(".claimguard-leader"))
                .toList();
    }

    private static List<String> names(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.map(entry -> entry.getFileName().toString()).toList();
        }
    }

    /** The SHA-256 of each regular file in a folder, counted; in .error/ without the reason files beside them. */
    private static Map<String, Integer> digests(Path directory, boolean withReasons) throws IOException {
        Map<String, Integer> digests = new HashMap<>();
        if (!Files.isDirectory(directory)) {
            return digests;
        }
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) || withReasons && name.endsWith(".reason")) {
                    continue;
                }
                digests.merge(HarnessInput.sha256(Files.readAllBytes(entry)), 1, Integer::sum);
            }
        }
        return digests;
    }

    private static long count(Path directory, Predicate<Path> test) throws IOException {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(test).count();
        }
    }

    private static BasicFileAttributes attributes(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the service says an input came from: a file's name as read, a message's JMS id. */
    private static String reference(HostileInput input, Map<String, String> messageIds) {
        return input.channel() == Channel.FILE ? input.nameAsRead() : messageIds.get(input.tag());
    }

    private void expectSourceRef(List<HostileInput> copies, String sourceRef, Map<String, String> messageIds, String row) {
        if (copies.stream().noneMatch(copy -> sourceRef.equals(reference(copy, messageIds)))) {
            problem(tags(copies) + ": " + row + " has source_ref " + printable(sourceRef) + ", which no copy has");
        }
    }

    private static Map<String, List<AuditRow>> auditRows(Connection sql) throws SQLException {
        Map<String, List<AuditRow>> rows = new HashMap<>();
        try (PreparedStatement statement = sql.prepareStatement(
                "SELECT encode(input_sha256, 'hex'), id, request_id, source_ref FROM claimguard.verification_audit");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                rows.computeIfAbsent(result.getString(1), digest -> new ArrayList<>())
                        .add(new AuditRow(result.getLong(2), result.getString(3), result.getString(4)));
            }
        }
        return rows;
    }

    /** dead_letter rows by the digest of their bytes; those of entries that are not files apart, into {@code fileType}. */
    private static Map<String, List<DeadLetterRow>> deadLetters(Connection sql, List<DeadLetterRow> fileType)
            throws SQLException {
        Map<String, List<DeadLetterRow>> rows = new HashMap<>();
        try (PreparedStatement statement = sql.prepareStatement("""
                SELECT encode(payload_sha256, 'hex'), id, reason_code, source_ref, octet_length(payload)
                FROM claimguard.dead_letter""");
                ResultSet result = statement.executeQuery()) {
            while (result.next()) {
                DeadLetterRow row = new DeadLetterRow(result.getLong(2), result.getString(3), result.getString(4),
                        result.getLong(5));
                if (DEAD_LETTER_FILE_TYPE.equals(row.reasonCode())) {
                    fileType.add(row);
                } else {
                    rows.computeIfAbsent(result.getString(1), digest -> new ArrayList<>()).add(row);
                }
            }
        }
        return rows;
    }

    private void problem(String text) {
        otherProblems++;
        problems.add(text);
    }

    private static String tags(List<HostileInput> copies) {
        return copies.size() == 1 ? describe(copies.get(0))
                : copies.stream().map(HostileAccounting::describe).toList().toString();
    }

    private static String describe(HostileInput input) {
        return input.tag() + " (" + (input.channel() == Channel.JMS ? "JMS" : input.nameCase() + " name "
                + printable(input.nameAsRead())) + ", " + input.bodyCase() + ")";
    }

    /** A name as one printable line, for the harness's own report. */
    static String printable(String name) {
        StringBuilder text = new StringBuilder();
        name.codePoints().limit(80).forEach(c -> {
            if (c < 0x20 || c == 0x7f) {
                text.append(String.format("\\x%02x", c));
            } else {
                text.appendCodePoint(c);
            }
        });
        return name.codePointCount(0, name.length()) > 80 ? text + "..." : text.toString();
    }
}
