package io.claimguard.seal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/**
 * What a seal covers and how its hash is computed: the one definition, used by the sealer and the verifier alike.
 *
 * <p><b>Content of an audit row.</b> Every column of the {@code verification_audit} row, then its
 * {@code claim_check} rows in ordinal order, then its {@code finding} rows in ordinal order, each value as PostgreSQL renders it with {@link #CONTENT_COLUMNS}:
 * <ol>
 *   <li>{@code id}, {@code request_id}, {@code source}, {@code source_ref}, {@code received_at},
 *       {@code model_verdict}, {@code effective_verdict}, {@code downgraded}, {@code guard_reasons},
 *       {@code projection_mode}, {@code groundedness_score}, {@code critical_fact_count}, {@code audit},
 *       {@code input_sha256}, {@code audited_at};</li>
 *   <li>for each claim check: {@code ordinal}, {@code claim_id}, {@code claim_text}, {@code claim_type},
 *       {@code verification}, {@code legacy_verification}, {@code is_critical}, {@code detail},
 *       {@code evidence_refs};</li>
 *   <li>{@code redrive_of} (V5), only when it is not null: a row that was not re-driven has exactly the content it
 *       had before the column existed, so that no seal made before it changes, while adding, removing or changing
 *       a row's link to its dead letter breaks the chain all the same;</li>
 *   <li>{@code policy} (V7), only when it is not null, and then after {@code redrive_of} whether or not that is
 *       null: a row written before the column existed keeps its content, every later row's policy is sealed;</li>
 *   <li>its findings (V6), only when it has any: for each, {@code ordinal}, {@code claim_ordinal}, {@code code},
 *       {@code detail}. A row without findings (every row written before V6 among them) has exactly the content it
 *       had before, while adding, removing or changing a finding row breaks the chain.</li>
 * </ol>
 * Timestamps are {@code YYYY-MM-DDTHH:MI:SS.ffffffZ} in UTC; integers and booleans their text ({@code 42},
 * {@code true}); {@code guard_reasons} PostgreSQL's array text ({@code {gatekeeper.fail,verdict.invalid}});
 * {@code audit} and {@code evidence_refs} PostgreSQL's jsonb text; {@code groundedness_score} its 8 IEEE 754 bytes
 * ({@code float8send}), so that no float formatting setting can change it; {@code input_sha256} its bytes; text
 * its UTF-8 bytes. None of this depends on the session's time zone, date style or float digits.
 *
 * <p><b>Encoding.</b> Each value is the byte {@code 0x00} when NULL, else {@code 0x01}, its length as 4 bytes
 * big-endian and its bytes. The row's 15 values come first, then the number of claim checks as 4 bytes
 * big-endian, then 9 values per claim check, then {@code redrive_of} if it or {@code policy} is not null, then
 * {@code policy} if it is not null, then, if the row has findings, the byte {@code 0x02}, the number of findings as
 * 4 bytes big-endian and 4 values per finding. Lengths make the encoding unambiguous: no value can pass for two, the
 * claim count says where the optional parts start, their number (none, one or two values) says which they are, and
 * the findings part begins with a byte no value begins with.
 *
 * <p><b>Hash.</b> {@code SHA-256("claimguard-audit-seal-v1" || previous_hash || content)}, where previous_hash
 * is the hash of the seal before in seq order, or {@link #GENESIS} for the first seal. A change to what is
 * covered is a new version of this definition, with a new tag.
 */
public final class SealHash {

    /** The previous_hash of the first seal. */
    static final byte[] GENESIS = new byte[32];

    /** The previous_hash of the first seal: 32 zero bytes. */
    public static byte[] genesis() {
        return GENESIS.clone();
    }

    private static final byte[] TAG = "claimguard-audit-seal-v1".getBytes(StandardCharsets.US_ASCII);
    private static final int ROW_VALUES = 15;
    private static final int CLAIM_VALUES = 9;
    private static final int FINDING_VALUES = 4;
    /** Begins the findings part: a value begins with 0x00 (NULL) or 0x01, so it cannot be taken for redrive_of. */
    private static final int FINDINGS_PART = 0x02;
    // positions of the bytea columns among the row values (1-based, as in the select list)
    private static final int GROUNDEDNESS_SCORE = 11;
    private static final int INPUT_SHA256 = 14;

    /** The 15 row values of {@code claimguard.verification_audit AS a}, each rendered as the seal hashes it. */
    private static final String ROW_VALUE_COLUMNS = """
            a.id::text,
            a.request_id,
            a.source,
            a.source_ref,
            to_char(a.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            a.model_verdict,
            a.effective_verdict,
            a.downgraded::text,
            a.guard_reasons::text,
            a.projection_mode,
            float8send(a.groundedness_score),
            a.critical_fact_count::text,
            a.audit::text,
            a.input_sha256,
            to_char(a.audited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
            """;

    /**
     * The select list, over {@code claimguard.verification_audit AS a}, that renders one row's content: the 15
     * row values, then every claim value of its claim checks as one text array, 9 entries per claim check, then
     * {@code redrive_of}, {@code policy}, then every value of its findings as one text array, 4 entries per finding.
     */
    public static final String CONTENT_COLUMNS = ROW_VALUE_COLUMNS + """
            ARRAY(
                SELECT v.value
                FROM claimguard.claim_check AS c
                CROSS JOIN LATERAL unnest(ARRAY[
                    c.ordinal::text, c.claim_id, c.claim_text, c.claim_type, c.verification,
                    c.legacy_verification, c.is_critical::text, c.detail, c.evidence_refs::text])
                    WITH ORDINALITY AS v (value, position)
                WHERE c.audit_id = a.id AND c.audited_at = a.audited_at
                ORDER BY c.ordinal, v.position),
            a.redrive_of::text,
            a.policy,
            ARRAY(
                SELECT v.value
                FROM claimguard.finding AS f
                CROSS JOIN LATERAL unnest(ARRAY[f.ordinal::text, f.claim_ordinal::text, f.code, f.detail])
                    WITH ORDINALITY AS v (value, position)
                WHERE f.audit_id = a.id AND f.audited_at = a.audited_at
                ORDER BY f.ordinal, v.position)
            """;

    /** How many columns {@link #CONTENT_COLUMNS} selects: a query adds its own after them. */
    public static final int CONTENT_COLUMN_COUNT = ROW_VALUES + 4;

    /**
     * The same content as {@link #CONTENT_COLUMNS} in three streams instead of one row with arrays, for reading many
     * rows: the 15 row values, {@code redrive_of} and {@code policy} of {@code claimguard.verification_audit AS a}
     * ({@link #ROW_PART}), the 9 values of each claim check of {@code claimguard.claim_check AS c} ({@link #CLAIM_PART})
     * and the 4 of each finding of {@code claimguard.finding AS f} ({@link #FINDING_PART}), each stream ordered by the
     * same key and the claim checks and findings by ordinal within it. The server builds, sorts and renders no array per
     * row and the client parses none: 4.75 s of server CPU per 100,000 rows against 6.73 in the one-row form (design
     * 2026-12-05-chain-speed).
     */
    static final String ROW_PART = ROW_VALUE_COLUMNS + """
            a.redrive_of::text,
            a.policy
            """;

    /** How many columns {@link #ROW_PART} selects: a query adds its own after them. */
    static final int ROW_PART_COLUMNS = ROW_VALUES + 2;

    /** One claim check's values, after the stream's key. */
    static final String CLAIM_PART = """
            c.ordinal::text, c.claim_id, c.claim_text, c.claim_type, c.verification, c.legacy_verification,
            c.is_critical::text, c.detail, c.evidence_refs::text
            """;

    /** One finding's values, after the stream's key. */
    static final String FINDING_PART = "f.ordinal::text, f.claim_ordinal::text, f.code, f.detail\n";

    /**
     * Hashes rows read as {@link #ROW_PART} with their claim checks and findings read beside them as {@link #CLAIM_PART}
     * and {@link #FINDING_PART}, each after a key column (the first) that orders all three streams alike (seal seq,
     * audit id). Holds one row's claim checks and findings at a time; the digest is reused.
     */
    static final class SplitContent {

        private final Part claims;
        private final Part findings;
        private final MessageDigest sha256 = sha256();
        private final byte[] length = new byte[Integer.BYTES];

        SplitContent(ResultSet claims, ResultSet findings) {
            this.claims = new Part(claims, CLAIM_VALUES);
            this.findings = new Part(findings, FINDING_VALUES);
        }

        /** The hash of a seal over {@code previousHash} and the content of the current row, whose key is {@code key}. */
        byte[] link(byte[] previousHash, ResultSet row, long key) throws SQLException {
            sha256.reset();
            sha256.update(TAG);
            sha256.update(previousHash);
            // getBytes of a text value is its UTF-8 bytes as received (the driver's client encoding is UTF8): no
            // decoding to a String and encoding back, which for the audit document cost as much as hashing it
            for (int column = 1; column <= ROW_VALUES; column++) {
                value(row.getBytes(column));
            }
            List<byte[]> claimValues = claims.valuesOf(key);
            writeLength(claimValues.size() / CLAIM_VALUES);
            for (byte[] value : claimValues) {
                value(value);
            }
            byte[] redriveOf = row.getBytes(ROW_VALUES + 1);
            byte[] policy = row.getBytes(ROW_VALUES + 2);
            if (redriveOf != null || policy != null) {
                value(redriveOf);
            }
            if (policy != null) {
                value(policy);
            }
            List<byte[]> findingValues = findings.valuesOf(key);
            if (!findingValues.isEmpty()) {
                sha256.update((byte) FINDINGS_PART);
                writeLength(findingValues.size() / FINDING_VALUES);
                for (byte[] value : findingValues) {
                    value(value);
                }
            }
            return sha256.digest();
        }

        /** Passes over the claim checks and findings of keys up to this one: a seal whose row is gone has none. */
        void skipTo(long key) throws SQLException {
            claims.valuesOf(key);
            findings.valuesOf(key);
        }

        private void value(byte[] value) {
            if (value == null) {
                sha256.update((byte) 0);
                return;
            }
            sha256.update((byte) 1);
            writeLength(value.length);
            sha256.update(value);
        }

        private void writeLength(int value) {
            length[0] = (byte) (value >>> 24);
            length[1] = (byte) (value >>> 16);
            length[2] = (byte) (value >>> 8);
            length[3] = (byte) value;
            sha256.update(length);
        }
    }

    /** A stream of child rows (key, values) in key order, read one key at a time. */
    private static final class Part {

        private final ResultSet rows;
        private final int width;
        private final List<byte[]> values = new ArrayList<>();
        /** The key of the row the cursor stands on and has not handed out yet; null when it stands on none. */
        private Long pending;
        private boolean exhausted;

        Part(ResultSet rows, int width) {
            this.rows = rows;
            this.width = width;
        }

        /** The values of the rows of this key, in order; the rows of smaller keys are passed over. */
        List<byte[]> valuesOf(long key) throws SQLException {
            values.clear();
            while (true) {
                if (pending == null) {
                    if (exhausted || !rows.next()) {
                        exhausted = true;
                        return values;
                    }
                    pending = rows.getLong(1);
                }
                if (pending > key) {
                    return values;
                }
                if (pending == key) {
                    for (int column = 2; column <= width + 1; column++) {
                        values.add(rows.getBytes(column));
                    }
                }
                pending = null;
            }
        }
    }

    private SealHash() {
    }

    /** The audit id of the current row of a result set that selects {@link #CONTENT_COLUMNS}. */
    static long auditId(ResultSet row) throws SQLException {
        return Long.parseLong(row.getString(1));
    }

    /**
     * One row's content as values, as {@link #CONTENT_COLUMNS} renders them: what an archive keeps of a sealed row, and
     * all that its hash is recomputed from.
     *
     * @param row the 15 row values in order, {@code groundedness_score} and {@code input_sha256} in hex; null for NULL
     * @param claims the claim values, 9 per claim check
     * @param findings the finding values, 4 per finding
     */
    public record Rendered(List<String> row, List<String> claims, String redriveOf, String policy,
            List<String> findings) {

        public Rendered {
            if (row.size() != ROW_VALUES || claims.size() % CLAIM_VALUES != 0 || findings.size() % FINDING_VALUES != 0) {
                throw new IllegalArgumentException("not a rendered audit row: %d row values, %d claim values, %d finding values"
                        .formatted(row.size(), claims.size(), findings.size()));
            }
            row = Collections.unmodifiableList(new ArrayList<>(row));
            // a claim value may be NULL: no List.copyOf
            claims = Collections.unmodifiableList(new ArrayList<>(claims));
            findings = Collections.unmodifiableList(new ArrayList<>(findings));
        }

        /** The audit id: the first row value. */
        public long auditId() {
            return Long.parseLong(row.get(0));
        }
    }

    /** The current row of a result set that selects {@link #CONTENT_COLUMNS}, as values. */
    public static Rendered rendered(ResultSet row) throws SQLException {
        List<String> values = new ArrayList<>(ROW_VALUES);
        for (int column = 1; column <= ROW_VALUES; column++) {
            boolean bytes = column == GROUNDEDNESS_SCORE || column == INPUT_SHA256;
            if (bytes) {
                byte[] value = row.getBytes(column);
                values.add(value == null ? null : hex(value));
            } else {
                values.add(row.getString(column));
            }
        }
        return new Rendered(values, Arrays.asList(textArray(row, ROW_VALUES + 1)), row.getString(ROW_VALUES + 2),
                row.getString(ROW_VALUES + 3), Arrays.asList(textArray(row, ROW_VALUES + 4)));
    }

    /** The canonical content of the current row of a result set that selects {@link #CONTENT_COLUMNS}. */
    static byte[] content(ResultSet row) throws SQLException {
        return content(rendered(row));
    }

    /** The canonical content of a rendered row: the bytes its seal's hash covers. */
    public static byte[] content(Rendered rendered) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (int column = 1; column <= ROW_VALUES; column++) {
            String value = rendered.row().get(column - 1);
            boolean bytes = column == GROUNDEDNESS_SCORE || column == INPUT_SHA256;
            writeValue(content, bytes ? (value == null ? null : HexFormat.of().parseHex(value)) : utf8(value));
        }
        writeLength(content, rendered.claims().size() / CLAIM_VALUES);
        for (String value : rendered.claims()) {
            writeValue(content, utf8(value));
        }
        if (rendered.redriveOf() != null || rendered.policy() != null) {
            writeValue(content, utf8(rendered.redriveOf()));
        }
        if (rendered.policy() != null) {
            writeValue(content, utf8(rendered.policy()));
        }
        if (!rendered.findings().isEmpty()) {
            content.write(FINDINGS_PART);
            writeLength(content, rendered.findings().size() / FINDING_VALUES);
            for (String value : rendered.findings()) {
                writeValue(content, utf8(value));
            }
        }
        return content.toByteArray();
    }

    private static String[] textArray(ResultSet row, int column) throws SQLException {
        Array array = row.getArray(column);
        String[] values = (String[]) array.getArray();
        array.free();
        return values;
    }

    /** The hash of a seal: SHA-256 over the tag, the previous seal's hash and the row's content. */
    public static byte[] link(byte[] previousHash, byte[] content) {
        MessageDigest sha256 = sha256();
        sha256.update(TAG);
        sha256.update(previousHash);
        sha256.update(content);
        return sha256.digest();
    }

    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static void writeValue(ByteArrayOutputStream content, byte[] value) {
        if (value == null) {
            content.write(0);
            return;
        }
        content.write(1);
        writeLength(content, value.length);
        content.writeBytes(value);
    }

    private static void writeLength(ByteArrayOutputStream content, int length) {
        content.writeBytes(ByteBuffer.allocate(Integer.BYTES).putInt(length).array());
    }

    private static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
