package io.claimguard.archive;

import io.claimguard.checkpoint.Checkpoint;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.checkpoint.SignedCheckpoint;
import io.claimguard.merkle.CompactRange;
import io.claimguard.merkle.Rfc6962;
import io.claimguard.seal.SealHash;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Archives the monthly partitions older than a given age and drops them (claimguard archive), so that the proof stays:
 * <ol>
 *   <li>the months whose partitions lie wholly before {@code now - maxAge} are taken oldest first; the seal range is
 *       the live seals up to S, the highest seq all of whose seals before it belong to audits of those months, and a
 *       month is left for a later run when one of its audits is not sealed by S (sealed late, or not yet);</li>
 *   <li>their audits (as the seals' content, with the seals), claim checks, findings and dead letters are written to
 *       one gzip JSON lines file ({@link AuditArchive}), ended by a checkpoint over the chain up to S, signed with the
 *       checkpoint key;</li>
 *   <li>the file is read back and verified as the continuation of the archives before it, with the public key;</li>
 *   <li>only then, in the same transaction that holds the months' partitions locked against inserts since the start,
 *       the archive is recorded in {@code claimguard.audit_archive} (where the service's checkpoint writer goes on
 *       from) and each partition is detached and dropped. The key tables ({@code audit_input_key}, {@code dead_letter_key},
 *       {@code audit_seal_key}) are kept: duplicates stay refused, leaf indexes stay right.</li>
 * </ol>
 * It needs the owner's login (it drops tables); the service's runtime role cannot.
 */
public final class Retention {

    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyy_MM");
    private static final HexFormat HEX = HexFormat.of();
    /** Child tables first: nothing refers to a partition, but a reader sees whole months to the end. */
    private static final List<String> TABLES = List.of("finding", "claim_check", "audit_seal", "verification_audit",
            "dead_letter");

    private static final String MONTH_PARTITIONS = """
            SELECT c.relname
            FROM pg_catalog.pg_inherits AS i
            JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'claimguard.verification_audit'::regclass
              AND c.relname ~ '^verification_audit_[0-9]{4}_[0-9]{2}$'
            ORDER BY c.relname
            """;

    private static final String FIRST_SEAL_AFTER = """
            SELECT least((SELECT min(seq) FROM claimguard.audit_seal WHERE audited_at >= ?),
                         (SELECT min(seq) FROM claimguard.audit_seal_default))
            """;

    private static final String SEALS_UP_TO = """
            SELECT min(seq), max(seq), count(*) FROM claimguard.audit_seal WHERE seq <= ?
            """;

    private static final String LAST_SEAL = "SELECT max(seq) FROM claimguard.audit_seal";

    private static final String NOT_SEALED_BY = """
            SELECT count(*) FROM claimguard.verification_audit AS a
            WHERE a.audited_at >= ? AND a.audited_at < ?
              AND NOT EXISTS (SELECT FROM claimguard.audit_seal AS s
                              WHERE s.audit_id = a.id AND s.audited_at = a.audited_at AND s.seq <= ?)
            """;

    private static final String SEALED_ROWS = "SELECT " + SealHash.CONTENT_COLUMNS + """
            , s.seq, s.previous_hash, s.hash, s.sealed_at
            FROM claimguard.audit_seal AS s
            JOIN claimguard.verification_audit AS a ON a.id = s.audit_id AND a.audited_at = s.audited_at
            WHERE s.seq <= ?
            ORDER BY s.seq
            """;

    private static final String DEAD_LETTERS = """
            SELECT id, source, source_ref, received_at, reason_code, reason, payload, payload_sha256, payload_size,
                   payload_truncated, recorded_at, redrive_of
            FROM claimguard.dead_letter
            WHERE recorded_at >= ? AND recorded_at < ?
            ORDER BY id
            """;

    private static final String RECORD_ARCHIVE = """
            INSERT INTO claimguard.audit_archive (
                last_seq, first_seq, tree_size, last_hash, compact_range, file_name, months, checkpoint)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """;

    private static final int FETCH_SIZE = 100;

    private Retention() {
    }

    /** What a run did: the archive written and the months dropped, or why nothing was archived. */
    public record Outcome(Path archive, List<String> months, long seals, long deadLetters, long lastSeq, String nothing) {

        static Outcome nothing(String why) {
            return new Outcome(null, List.of(), 0, 0, 0, why);
        }
    }

    /**
     * Archives and drops the months older than {@code maxAge}.
     *
     * @param directory where the archives are kept; the earlier ones must be there, as they continue each other
     * @param origin the checkpoint origin (the service's claimguard.checkpoint.origin)
     */
    public static Outcome archive(Connection connection, Duration maxAge, Path directory, Ed25519Keys.SigningKey key,
            String origin, Instant now) throws SQLException, IOException, AuditArchive.ArchiveBroken {
        AuditArchive.Verified before = AuditArchive.verifyAll(directory, key.publicKey());
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        Path written = null;
        try {
            List<YearMonth> months = monthsBefore(connection, now.minus(maxAge));
            lockAgainstInserts(connection, months);
            long sealUpTo = 0;
            while (!months.isEmpty()) {
                Long bound = sealBound(connection, end(months));
                if (bound != null && notSealedBy(connection, months, bound) == 0) {
                    sealUpTo = bound;
                    break;
                }
                // a month whose audits are not all sealed before the first seal of a later month waits for a later run
                months = months.subList(0, months.size() - 1);
            }
            if (months.isEmpty()) {
                connection.rollback();
                return Outcome.nothing("no month older than " + maxAge + " whose audits are all sealed in one range");
            }
            long[] range = sealRange(connection, sealUpTo);
            if (range[2] == 0) {
                connection.rollback();
                return Outcome.nothing("the months older than " + maxAge + " hold no sealed audit");
            }
            Files.createDirectories(directory);
            Path temporary = directory.resolve("." + UUID.randomUUID() + ".tmp");
            Written archive;
            try {
                archive = write(connection, temporary, months, range, before, key, origin, now);
                written = directory.resolve(AuditArchive.fileName(range[0], range[1]));
                Files.move(temporary, written, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temporary);
            }
            AuditArchive.verify(written, before, key.publicKey());
            List<String> monthNames = months.stream().map(MONTH::format).toList();
            record(connection, range, archive, written, monthNames);
            drop(connection, months);
            connection.commit();
            return new Outcome(written, monthNames, range[2], archive.deadLetters(), range[1], null);
        } catch (SQLException | IOException | AuditArchive.ArchiveBroken | RuntimeException e) {
            connection.rollback();
            if (written != null) {
                // the partitions stay: an archive of them must not stay beside them
                Files.deleteIfExists(written);
            }
            throw e;
        }
    }

    /** The months whose partitions end at or before the cut, oldest first. */
    private static List<YearMonth> monthsBefore(Connection connection, Instant cut) throws SQLException {
        List<YearMonth> months = new ArrayList<>();
        try (Statement query = connection.createStatement(); ResultSet rs = query.executeQuery(MONTH_PARTITIONS)) {
            while (rs.next()) {
                YearMonth month = YearMonth.parse(rs.getString(1).substring("verification_audit_".length()), MONTH);
                if (!start(month.plusMonths(1)).isAfter(cut)) {
                    months.add(month);
                }
            }
        }
        return months;
    }

    /** SHARE locks: the months' partitions are read and dropped as they are; inserts elsewhere go on. */
    private static void lockAgainstInserts(Connection connection, List<YearMonth> months) throws SQLException {
        try (Statement lock = connection.createStatement()) {
            for (YearMonth month : months) {
                for (String table : TABLES) {
                    // names made of a fixed table name and a parsed month: nothing from outside
                    lock.execute("LOCK TABLE claimguard." + table + "_" + MONTH.format(month) + " IN SHARE MODE");
                }
            }
        }
    }

    /** The highest seq before the first seal of an audit at or after the end (or in the default partition). */
    private static Long sealBound(Connection connection, Instant end) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(FIRST_SEAL_AFTER)) {
            query.setObject(1, utc(end));
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                long first = rs.getLong(1);
                if (!rs.wasNull()) {
                    return first - 1;
                }
            }
        }
        try (Statement query = connection.createStatement(); ResultSet rs = query.executeQuery(LAST_SEAL)) {
            rs.next();
            long last = rs.getLong(1);
            return rs.wasNull() ? null : last;
        }
    }

    private static long notSealedBy(Connection connection, List<YearMonth> months, long seq) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(NOT_SEALED_BY)) {
            query.setObject(1, utc(start(months.get(0))));
            query.setObject(2, utc(end(months)));
            query.setLong(3, seq);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** {first seq, last seq, count} of the live seals up to a seq. */
    private static long[] sealRange(Connection connection, long upTo) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(SEALS_UP_TO)) {
            query.setLong(1, upTo);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
            }
        }
    }

    /** What was written: the tree up to the archive's last seal, and its signed checkpoint. */
    private record Written(long deadLetters, CompactRange tree, byte[] lastHash, SignedCheckpoint checkpoint) {
    }

    /** The archive in {@code claimguard.audit_archive}, where the service's checkpoint writer goes on from. */
    private static void record(Connection connection, long[] range, Written archive, Path file, List<String> months)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(RECORD_ARCHIVE)) {
            insert.setLong(1, range[1]);
            insert.setLong(2, range[0]);
            insert.setLong(3, archive.tree().size());
            insert.setBytes(4, archive.lastHash());
            insert.setArray(5, connection.createArrayOf("bytea", archive.tree().hashes().toArray(new byte[0][])));
            insert.setString(6, file.getFileName().toString());
            insert.setArray(7, connection.createArrayOf("text", months.toArray()));
            insert.setString(8, archive.checkpoint().line());
            insert.executeUpdate();
        }
    }

    private static Written write(Connection connection, Path file, List<YearMonth> months, long[] range,
            AuditArchive.Verified before, Ed25519Keys.SigningKey key, String origin, Instant now)
            throws SQLException, IOException {
        CompactRange tree = before.tree();
        long deadLetters = 0;
        try (Writer out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(file)),
                StandardCharsets.UTF_8))) {
            ObjectNode header = AuditArchive.JSON.createObjectNode()
                    .put("type", "header")
                    .put("format", AuditArchive.FORMAT)
                    .put("first_seq", range[0])
                    .put("last_seq", range[1])
                    .put("seals", range[2])
                    .put("leaf_index", tree.size())
                    .put("previous_hash", HEX.formatHex(before.lastHash()))
                    .put("created_at", now.toString());
            ArrayNode partitions = header.putArray("partitions");
            months.forEach(month -> partitions.add(MONTH.format(month)));
            line(out, header);
            byte[] lastHash = before.lastHash();
            try (PreparedStatement query = connection.prepareStatement(SEALED_ROWS)) {
                query.setLong(1, range[1]);
                query.setFetchSize(FETCH_SIZE);
                try (ResultSet rs = query.executeQuery()) {
                    int seal = SealHash.CONTENT_COLUMN_COUNT + 1;
                    while (rs.next()) {
                        SealHash.Rendered row = SealHash.rendered(rs);
                        ObjectNode audit = AuditArchive.JSON.createObjectNode()
                                .put("type", "audit")
                                .put("seq", rs.getLong(seal))
                                .put("previous_hash", HEX.formatHex(rs.getBytes(seal + 1)))
                                .put("hash", HEX.formatHex(rs.getBytes(seal + 2)))
                                .put("sealed_at", rs.getObject(seal + 3, OffsetDateTime.class).toInstant().toString());
                        strings(audit.putArray("row"), row.row());
                        strings(audit.putArray("claims"), row.claims());
                        audit.put("redrive_of", row.redriveOf()).put("policy", row.policy());
                        strings(audit.putArray("findings"), row.findings());
                        line(out, audit);
                        lastHash = rs.getBytes(seal + 2);
                        tree.append(Rfc6962.leafHash(lastHash));
                    }
                }
            }
            try (PreparedStatement query = connection.prepareStatement(DEAD_LETTERS)) {
                query.setObject(1, utc(start(months.get(0))));
                query.setObject(2, utc(end(months)));
                query.setFetchSize(FETCH_SIZE);
                try (ResultSet rs = query.executeQuery()) {
                    while (rs.next()) {
                        ObjectNode deadLetter = AuditArchive.JSON.createObjectNode()
                                .put("type", "dead_letter")
                                .put("id", rs.getLong(1))
                                .put("source", rs.getString(2))
                                .put("source_ref", rs.getString(3))
                                .put("received_at", rs.getObject(4, OffsetDateTime.class).toInstant().toString())
                                .put("reason_code", rs.getString(5))
                                .put("reason", rs.getString(6))
                                .put("payload", Base64.getEncoder().encodeToString(rs.getBytes(7)))
                                .put("payload_sha256", HEX.formatHex(rs.getBytes(8)))
                                .put("payload_size", rs.getLong(9))
                                .put("payload_truncated", rs.getBoolean(10))
                                .put("recorded_at", rs.getObject(11, OffsetDateTime.class).toInstant().toString());
                        long redriveOf = rs.getLong(12);
                        deadLetter.put("redrive_of", rs.wasNull() ? null : redriveOf);
                        line(out, deadLetter);
                        deadLetters++;
                    }
                }
            }
            Checkpoint checkpoint = new Checkpoint(origin, tree.size(), tree.root(), range[1], lastHash, now);
            SignedCheckpoint signed = SignedCheckpoint.sign(checkpoint, key.privateKey(), key.publicKey());
            line(out, AuditArchive.JSON.createObjectNode().put("type", "checkpoint").put("line", signed.line()));
            return new Written(deadLetters, tree, lastHash, signed);
        }
    }

    private static void drop(Connection connection, List<YearMonth> months) throws SQLException {
        try (Statement ddl = connection.createStatement()) {
            for (YearMonth month : months) {
                for (String table : TABLES) {
                    String partition = table + "_" + MONTH.format(month);
                    ddl.execute("ALTER TABLE claimguard." + table + " DETACH PARTITION claimguard." + partition);
                    ddl.execute("DROP TABLE claimguard." + partition);
                }
            }
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static void line(Writer out, ObjectNode line) throws IOException {
        out.write(AuditArchive.JSON.writeValueAsString(line));
        out.write('\n');
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant start(YearMonth month) {
        return month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    private static Instant end(List<YearMonth> months) {
        return start(months.get(months.size() - 1).plusMonths(1));
    }
}
