package io.claimguard.checkpoint;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A statement about the audit chain at one moment: its first {@code treeSize} seals (in seq order) give the RFC 6962
 * Merkle root {@code rootHash}, and the last of them is seal {@code headSeq} with hash {@code headHash}. Its signed form
 * is a C2SP {@code tlog-checkpoint} note body: origin, tree size and root hash lines, then one extension line with
 * the chain head and the time.
 *
 * @param origin names the log: which database's chain ({@code claimguard/<host>:<port>/<database>} by default);
 *     printable ASCII, no spaces
 * @param time when the checkpoint was made, in milliseconds
 */
public record Checkpoint(String origin, long treeSize, byte[] rootHash, long headSeq, byte[] headHash, Instant time) {

    public Checkpoint {
        if (origin == null || origin.isEmpty() || !origin.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("a checkpoint origin is printable ASCII without spaces, not '" + origin + "'");
        }
        if (treeSize < 1) {
            throw new IllegalArgumentException("a checkpoint covers at least one seal, not " + treeSize);
        }
        if (rootHash.length != 32 || headHash.length != 32) {
            throw new IllegalArgumentException("checkpoint hashes are 32 bytes");
        }
        rootHash = rootHash.clone();
        headHash = headHash.clone();
        time = time.truncatedTo(ChronoUnit.MILLIS);
    }

    @Override
    public byte[] rootHash() {
        return rootHash.clone();
    }

    @Override
    public byte[] headHash() {
        return headHash.clone();
    }

    /** The note body that is signed, every line ending in a newline (C2SP signed-note). */
    public byte[] noteBody() {
        return noteText().getBytes(StandardCharsets.UTF_8);
    }

    String noteText() {
        return origin + "\n" + treeSize + "\n" + base64(rootHash) + "\n"
                + "seal " + headSeq + " " + base64(headHash) + " " + time + "\n";
    }

    /** How the verify command names it. */
    public String describe() {
        return "size %d, seal seq %d, %s".formatted(treeSize, headSeq, time);
    }

    public String headHex() {
        return HexFormat.of().formatHex(headHash);
    }

    static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Checkpoint that && noteText().equals(that.noteText());
    }

    @Override
    public int hashCode() {
        return noteText().hashCode();
    }

    @Override
    public String toString() {
        return noteText().replace('\n', ' ').strip();
    }
}
