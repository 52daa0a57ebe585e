package io.claimguard.checkpoint;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A checkpoint with its Ed25519 signature, as one line of a checkpoint log:
 *
 * <pre>v1 ORIGIN TREE-SIZE ROOT-HASH HEAD-SEQ HEAD-HASH TIME SIGNATURE</pre>
 *
 * <p>separated by single spaces; hashes in base64; the time in ISO-8601 UTC with milliseconds; the signature in
 * base64 of the 4-byte C2SP key id (of the key under the origin's name) followed by the 64-byte Ed25519 signature of
 * {@link Checkpoint#noteBody()}. So each line is a C2SP signed note written flat: its body lines are the origin, size
 * and root, and {@code seal HEAD-SEQ HEAD-HASH TIME}; its signature line {@code — ORIGIN SIGNATURE}.
 */
public record SignedCheckpoint(Checkpoint checkpoint, byte[] keyId, byte[] signature) {

    private static final String VERSION = "v1";
    private static final int FIELDS = 8;

    public static SignedCheckpoint sign(Checkpoint checkpoint, PrivateKey privateKey, PublicKey publicKey) {
        return new SignedCheckpoint(checkpoint, Ed25519Keys.keyId(checkpoint.origin(), publicKey),
                Ed25519Keys.sign(privateKey, checkpoint.noteBody()));
    }

    /**
     * Reads a log line; a line that is not exactly what {@link #line()} writes (another field count, a value that does
     * not parse, or one written another way, such as a time without its milliseconds) is refused with the reason.
     */
    public static SignedCheckpoint parse(String line) {
        String[] fields = line.split(" ", -1);
        if (fields.length != FIELDS || !fields[0].equals(VERSION)) {
            throw new IllegalArgumentException("not a checkpoint line (expected %d space-separated fields starting with %s)"
                    .formatted(FIELDS, VERSION));
        }
        SignedCheckpoint parsed;
        try {
            Base64.Decoder base64 = Base64.getDecoder();
            Checkpoint checkpoint = new Checkpoint(fields[1], Long.parseLong(fields[2]), base64.decode(fields[3]),
                    Long.parseLong(fields[4]), base64.decode(fields[5]), Instant.parse(fields[6]));
            byte[] signed = base64.decode(fields[7]);
            if (signed.length != 4 + 64) {
                throw new IllegalArgumentException("the signature field is not a 4-byte key id and a 64-byte signature");
            }
            parsed = new SignedCheckpoint(checkpoint, Arrays.copyOf(signed, 4), Arrays.copyOfRange(signed, 4, signed.length));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a checkpoint line (the time does not parse: " + fields[6] + ")");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a checkpoint line (" + e.getMessage() + ")");
        }
        if (!parsed.line().equals(line)) {
            throw new IllegalArgumentException("not a checkpoint line as the service writes it (a value written another way)");
        }
        return parsed;
    }

    public String line() {
        Checkpoint c = checkpoint;
        byte[] signed = new byte[keyId.length + signature.length];
        System.arraycopy(keyId, 0, signed, 0, keyId.length);
        System.arraycopy(signature, 0, signed, keyId.length, signature.length);
        return String.join(" ", VERSION, c.origin(), Long.toString(c.treeSize()), Checkpoint.base64(c.rootHash()),
                Long.toString(c.headSeq()), Checkpoint.base64(c.headHash()), c.time().toString(),
                Checkpoint.base64(signed));
    }

    /** Why this checkpoint's signature does not hold under the key; null when it does. */
    public String signatureProblem(PublicKey publicKey) {
        byte[] expectedId = Ed25519Keys.keyId(checkpoint.origin(), publicKey);
        if (!Arrays.equals(keyId, expectedId)) {
            return "signed by another key (key id %s; the public key's is %s)"
                    .formatted(HexFormat.of().formatHex(keyId), HexFormat.of().formatHex(expectedId));
        }
        if (!Ed25519Keys.verifies(publicKey, checkpoint.noteBody(), signature)) {
            return "the signature does not verify: the line was altered after signing, or forged";
        }
        return null;
    }

    /** The C2SP signed note this line stands for, for tools that read notes. */
    public String note() {
        return checkpoint.noteText() + "\n\u2014 " + checkpoint.origin() + " " + line().substring(line().lastIndexOf(' ') + 1)
                + "\n";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SignedCheckpoint that && line().equals(that.line());
    }

    @Override
    public int hashCode() {
        return line().hashCode();
    }

    @Override
    public String toString() {
        return line();
    }
}
