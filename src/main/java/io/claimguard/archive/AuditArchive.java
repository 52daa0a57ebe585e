package io.claimguard.archive;

import io.claimguard.checkpoint.ArchivedSeals;
import io.claimguard.checkpoint.Checkpoint;
import io.claimguard.checkpoint.SealLeaves;
import io.claimguard.checkpoint.SignedCheckpoint;
import io.claimguard.merkle.CompactRange;
import io.claimguard.merkle.Rfc6962;
import io.claimguard.seal.SealHash;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and verifies archive files ({@code claimguard archive}): gzip-compressed JSON lines, one object a line.
 * <ol>
 *   <li>{@code {"type": "header", "format": "claimguard-archive-1", "partitions": [...], "first_seq", "last_seq",
 *       "seals", "leaf_index", "previous_hash", "dead_letters"}}: the seal range it covers, how many seals come before
 *       it in the chain (its first leaf's index), and the hash of the seal before its first;</li>
 *   <li>one {@code {"type": "audit", "seq", "previous_hash", "hash", "sealed_at", "row", "claims", "redrive_of",
 *       "policy", "findings"}} per seal in seq order: the seal and its audit row's content as {@link SealHash} renders
 *       it, which is every column of the row, its claim checks and its findings;</li>
 *   <li>one {@code {"type": "dead_letter", ...}} per dead letter of the archived months, every column;</li>
 *   <li>last, {@code {"type": "checkpoint", "line": "v1 ..."}}: a checkpoint over the whole chain up to the archive's
 *       last seal, signed with the checkpoint key.</li>
 * </ol>
 * Verification recomputes every seal's hash from the archived row and its link to the one before, and checks that the
 * checkpoint's head is the last seal and its Merkle root that of every leaf up to it (the earlier archives' leaves
 * first), and, given the public key, its signature. Archives are verified oldest first, each continuing the one before.
 */
public final class AuditArchive {

    public static final String FORMAT = "claimguard-archive-1";

    /** {@code audit-archive-<first seq>-<last seq>.jsonl.gz}, the seqs zero-padded so that names sort in chain order. */
    static final Pattern FILE_NAME = Pattern.compile("audit-archive-(\\d{19})-(\\d{19})\\.jsonl\\.gz");

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();

    private AuditArchive() {
    }

    static String fileName(long firstSeq, long lastSeq) {
        return "audit-archive-%019d-%019d.jsonl.gz".formatted(firstSeq, lastSeq);
    }

    /** An archive that does not hold: altered, truncated, out of order, or its checkpoint does not match. */
    public static final class ArchiveBroken extends Exception {

        ArchiveBroken(Path file, String problem) {
            super(file.getFileName() + ": " + problem);
        }
    }

    /** The archive files of a directory, oldest first; none when the directory does not exist. */
    public static List<Path> files(Path directory) throws IOException {
        if (directory == null || !Files.isDirectory(directory)) {
            return List.of();
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                if (FILE_NAME.matcher(entry.getFileName().toString()).matches()) {
                    files.add(entry);
                }
            }
        }
        files.sort(Comparator.comparing(path -> path.getFileName().toString()));
        return files;
    }

    /**
     * Every archive of a directory verified, oldest first, each continuing the one before from the chain's start;
     * with the public key, each archive's checkpoint signature is checked too.
     */
    public static Verified verifyAll(Path directory, PublicKey publicKey) throws IOException, ArchiveBroken {
        Verified verified = Verified.empty();
        for (Path file : files(directory)) {
            verified = verify(file, verified, publicKey);
        }
        return verified;
    }

    /** One archive verified as the continuation of what was verified before it. */
    static Verified verify(Path file, Verified before, PublicKey publicKey) throws IOException, ArchiveBroken {
        Matcher name = FILE_NAME.matcher(file.getFileName().toString());
        if (!name.matches()) {
            throw new ArchiveBroken(file, "not named like an archive (" + FILE_NAME.pattern() + ")");
        }
        CompactRange tree = before.tree();
        List<SealLeaves.Leaf> leaves = new ArrayList<>(before.leaves());
        Map<Long, ArchivedSeals.Sealed> seals = new HashMap<>(before.seals);
        List<SignedCheckpoint> checkpoints = new ArrayList<>(before.checkpoints());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            JsonNode header = json(file, lines.readLine(), 1);
            if (!"header".equals(header.path("type").asString("")) || !FORMAT.equals(header.path("format").asString(""))) {
                throw new ArchiveBroken(file, "line 1 is not the header of a " + FORMAT + " archive");
            }
            long firstSeq = header.path("first_seq").asLong();
            long lastSeq = header.path("last_seq").asLong();
            long sealCount = header.path("seals").asLong();
            if (firstSeq != Long.parseLong(name.group(1)) || lastSeq != Long.parseLong(name.group(2))) {
                throw new ArchiveBroken(file, "its header covers seals %d to %d, its name another range"
                        .formatted(firstSeq, lastSeq));
            }
            if (header.path("leaf_index").asLong() != tree.size()) {
                throw new ArchiveBroken(file, "it begins at leaf %d, but the archives before it hold %d seals"
                        .formatted(header.path("leaf_index").asLong(), tree.size()));
            }
            byte[] previousHash = hex(file, header.path("previous_hash").asString(""), "previous_hash", 1);
            if (!Arrays.equals(previousHash, before.lastHash())) {
                throw new ArchiveBroken(file, before.lastSeq() == Long.MIN_VALUE
                        ? "its first seal does not follow the start of the chain"
                        : "its first seal does not follow seal seq %d, the last of the archive before it"
                                .formatted(before.lastSeq()));
            }
            long previousSeq = before.lastSeq();
            long read = 0;
            int lineNumber = 1;
            SignedCheckpoint checkpoint = null;
            String text;
            while ((text = lines.readLine()) != null) {
                lineNumber++;
                if (checkpoint != null) {
                    throw new ArchiveBroken(file, "line %d comes after the checkpoint, which must be last".formatted(lineNumber));
                }
                JsonNode line = json(file, text, lineNumber);
                switch (line.path("type").asString("")) {
                    case "audit" -> {
                        long seq = line.path("seq").asLong();
                        if (seq <= previousSeq) {
                            throw new ArchiveBroken(file, "line %d: seal seq %d does not come after seal seq %d"
                                    .formatted(lineNumber, seq, previousSeq));
                        }
                        byte[] sealPrevious = hex(file, line.path("previous_hash").asString(""), "previous_hash", lineNumber);
                        byte[] hash = hex(file, line.path("hash").asString(""), "hash", lineNumber);
                        if (!Arrays.equals(sealPrevious, previousHash)) {
                            throw new ArchiveBroken(file, "line %d: seal seq %d: previous_hash does not match the seal before it"
                                    .formatted(lineNumber, seq));
                        }
                        SealHash.Rendered row = rendered(file, line, lineNumber);
                        byte[] recomputed = SealHash.link(sealPrevious, SealHash.content(row));
                        if (!Arrays.equals(recomputed, hash)) {
                            throw new ArchiveBroken(file, "line %d: audit_id=%d: content altered (stored hash %s, recomputed %s)"
                                    .formatted(lineNumber, row.auditId(), HEX.formatHex(hash), HEX.formatHex(recomputed)));
                        }
                        seals.put(row.auditId(), new ArchivedSeals.Sealed(row.auditId(), row.row().get(1), seq, hash,
                                sealPrevious, tree.size()));
                        tree.append(Rfc6962.leafHash(hash));
                        leaves.add(new SealLeaves.Leaf(seq, hash));
                        previousHash = hash;
                        previousSeq = seq;
                        read++;
                    }
                    case "dead_letter" -> {
                        // not chained: kept for reading, covered by nothing but the file's checkpoint position
                    }
                    case "checkpoint" -> checkpoint = checkpoint(file, line.path("line").asString(""), lineNumber);
                    default -> throw new ArchiveBroken(file, "line %d is of no known type".formatted(lineNumber));
                }
            }
            if (checkpoint == null) {
                throw new ArchiveBroken(file, "it ends without its checkpoint: truncated");
            }
            if (read != sealCount || previousSeq != lastSeq) {
                throw new ArchiveBroken(file, "it holds %d seals up to seal seq %d; its header says %d up to %d"
                        .formatted(read, previousSeq, sealCount, lastSeq));
            }
            Checkpoint signed = checkpoint.checkpoint();
            if (signed.headSeq() != lastSeq || !Arrays.equals(signed.headHash(), previousHash)
                    || signed.treeSize() != tree.size() || !Arrays.equals(signed.rootHash(), tree.root())) {
                throw new ArchiveBroken(file, "its checkpoint (%s) does not match the chain it holds (%d seals up to seal seq %d)"
                        .formatted(signed.describe(), tree.size(), lastSeq));
            }
            if (publicKey != null) {
                String problem = checkpoint.signatureProblem(publicKey);
                if (problem != null) {
                    throw new ArchiveBroken(file, "its checkpoint: " + problem);
                }
            }
            checkpoints.add(checkpoint);
            return new Verified(tree, previousHash, lastSeq, leaves, seals, checkpoints);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new ArchiveBroken(file, "unreadable: " + e.getMessage());
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new ArchiveBroken(file, "not a whole gzip file: " + e.getMessage());
        }
    }

    private static JsonNode json(Path file, String text, int lineNumber) throws ArchiveBroken {
        if (text == null) {
            throw new ArchiveBroken(file, "line %d is missing: truncated".formatted(lineNumber));
        }
        try {
            return JSON.readTree(text);
        } catch (JacksonException e) {
            throw new ArchiveBroken(file, "line %d is not JSON".formatted(lineNumber));
        }
    }

    private static SealHash.Rendered rendered(Path file, JsonNode line, int lineNumber) throws ArchiveBroken {
        try {
            return new SealHash.Rendered(strings(line.path("row")), strings(line.path("claims")),
                    text(line.path("redrive_of")), text(line.path("policy")), strings(line.path("findings")));
        } catch (IllegalArgumentException e) {
            throw new ArchiveBroken(file, "line %d: %s".formatted(lineNumber, e.getMessage()));
        }
    }

    private static SignedCheckpoint checkpoint(Path file, String line, int lineNumber) throws ArchiveBroken {
        try {
            return SignedCheckpoint.parse(line);
        } catch (IllegalArgumentException e) {
            throw new ArchiveBroken(file, "line %d: %s".formatted(lineNumber, e.getMessage()));
        }
    }

    private static List<String> strings(JsonNode array) {
        if (!array.isArray()) {
            throw new IllegalArgumentException("an array of values is missing");
        }
        List<String> values = new ArrayList<>(array.size());
        for (JsonNode value : array) {
            values.add(text(value));
        }
        return values;
    }

    private static String text(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode() ? null : value.asString();
    }

    private static byte[] hex(Path file, String text, String field, int lineNumber) throws ArchiveBroken {
        try {
            byte[] bytes = HEX.parseHex(text);
            if (bytes.length == 32) {
                return bytes;
            }
        } catch (IllegalArgumentException e) {
            // named below
        }
        throw new ArchiveBroken(file, "line %d: %s is not a 32-byte hash in hex".formatted(lineNumber, field));
    }

    /**
     * What the archives verified so far hold: the Merkle tree over their seals, the last seal, and what a receipt
     * needs of each archived seal.
     */
    public static final class Verified implements ArchivedSeals {

        private final CompactRange tree;
        private final byte[] lastHash;
        private final long lastSeq;
        private final List<SealLeaves.Leaf> leaves;
        private final Map<Long, ArchivedSeals.Sealed> seals;
        private final List<SignedCheckpoint> checkpoints;

        Verified(CompactRange tree, byte[] lastHash, long lastSeq, List<SealLeaves.Leaf> leaves,
                Map<Long, ArchivedSeals.Sealed> seals, List<SignedCheckpoint> checkpoints) {
            this.tree = tree;
            this.lastHash = lastHash;
            this.lastSeq = lastSeq;
            this.leaves = List.copyOf(leaves);
            this.seals = Map.copyOf(seals);
            this.checkpoints = List.copyOf(checkpoints);
        }

        /** No archive. */
        public static Verified none() {
            return empty();
        }

        static Verified empty() {
            return new Verified(new CompactRange(), SealHash.genesis(), Long.MIN_VALUE, List.of(), Map.of(), List.of());
        }

        /** A copy of the tree over the archived seals, to go on from. */
        public CompactRange tree() {
            return CompactRange.resume(tree.size(), tree.hashes());
        }

        /** The hash of the last archived seal; the chain's start (32 zero bytes) when none was archived. */
        public byte[] lastHash() {
            return lastHash.clone();
        }

        @Override
        public long lastSeq() {
            return lastSeq;
        }

        /** How many seals the archives hold. */
        public long size() {
            return tree.size();
        }

        @Override
        public List<SealLeaves.Leaf> leaves() {
            return leaves;
        }

        @Override
        public Optional<Sealed> sealOf(long auditId) {
            return Optional.ofNullable(seals.get(auditId));
        }

        @Override
        public List<SignedCheckpoint> checkpoints() {
            return checkpoints;
        }
    }
}
