package io.claimguard.checkpoint;

import io.claimguard.merkle.MerkleProofs;
import io.claimguard.merkle.MerkleTree;
import io.claimguard.merkle.ProofException;
import io.claimguard.merkle.Rfc6962;
import io.claimguard.merkle.StreamedInclusion;
import java.security.PublicKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes receipts from the database and a checkpoint log ({@link #proveInclusion}, {@link #proveConsistency}), and
 * checks them with the public key alone ({@link #verify}). A receipt is made only against a checkpoint the chain still
 * contains: the prover recomputes the checkpoint's root from the seals first, so that it never hands out a proof that
 * cannot hold.
 */
public final class Receipts {

    /** Tree sizes a failed consistency proof lists at most (the oldest and the newest half). */
    private static final int SIZES_SHOWN = 20;

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final HexFormat HEX = HexFormat.of();

    private static final String SEAL_OF = """
            SELECT s.seq, s.hash, s.previous_hash, a.request_id,
                   (SELECT count(*) FROM claimguard.audit_seal_key AS t WHERE t.seq < s.seq)
            FROM claimguard.audit_seal AS s
            JOIN claimguard.verification_audit AS a ON a.id = s.audit_id AND a.audited_at = s.audited_at
            WHERE s.audit_id = ?
            """;

    private static final String ROW_EXISTS = "SELECT 1 FROM claimguard.verification_audit WHERE id = ?";

    private Receipts() {
    }

    /**
     * Why no receipt could be made.
     *
     * @param later true when it may work later (not sealed yet, no checkpoint covers it yet), false when it cannot
     */
    public static final class NotProvable extends RuntimeException {

        private final boolean later;

        NotProvable(String message, boolean later) {
            super(message);
            this.later = later;
        }

        public boolean later() {
            return later;
        }
    }

    /** A receipt that does not hold, and why. */
    public static final class ReceiptBroken extends RuntimeException {

        ReceiptBroken(String message) {
            super(message);
        }
    }

    /** The inclusion proof of one audit row's seal against the newest checkpoint that covers it. */
    public static Receipt.Inclusion proveInclusion(Connection connection, long auditId, List<SignedCheckpoint> checkpoints)
            throws SQLException {
        return proveInclusion(connection, auditId, checkpoints, ArchivedSeals.NONE);
    }

    /**
     * The inclusion proof of one audit row's seal, live or archived, against the newest checkpoint that covers it: one
     * of the log's, or the one at the end of an archive. The tree's first leaves are the archived seals.
     */
    public static Receipt.Inclusion proveInclusion(Connection connection, long auditId,
            List<SignedCheckpoint> logCheckpoints, ArchivedSeals archived) throws SQLException {
        List<SignedCheckpoint> checkpoints = new ArrayList<>(logCheckpoints);
        checkpoints.addAll(archived.checkpoints());
        long seq;
        byte[] hash;
        byte[] previousHash;
        String requestId;
        long leafIndex;
        ArchivedSeals.Sealed archivedSeal = archived.sealOf(auditId).orElse(null);
        if (archivedSeal != null) {
            seq = archivedSeal.seq();
            hash = archivedSeal.hash();
            previousHash = archivedSeal.previousHash();
            requestId = archivedSeal.requestId();
            leafIndex = archivedSeal.leafIndex();
        } else {
            try (PreparedStatement query = connection.prepareStatement(SEAL_OF)) {
                query.setLong(1, auditId);
                try (ResultSet rs = query.executeQuery()) {
                    if (!rs.next()) {
                        boolean exists = rowExists(connection, auditId);
                        throw new NotProvable(exists ? "audit_id " + auditId + " is not sealed yet; try again in a few seconds"
                                : "there is no audit row with audit_id " + auditId, exists);
                    }
                    seq = rs.getLong(1);
                    hash = rs.getBytes(2);
                    previousHash = rs.getBytes(3);
                    requestId = rs.getString(4);
                    leafIndex = rs.getLong(5);
                }
            }
        }
        SignedCheckpoint checkpoint = checkpoints.stream().filter(c -> c.checkpoint().treeSize() > leafIndex)
                .max(Comparator.comparingLong(c -> c.checkpoint().treeSize()))
                .orElseThrow(() -> new NotProvable("audit_id %d is sealed (seal seq %d) but no checkpoint covers it yet;"
                        .formatted(auditId, seq) + " the next one is signed within claimguard.checkpoint.period", true));
        List<String> proof = inclusionMatching(connection, checkpoint.checkpoint(), archived, leafIndex).stream()
                .map(Receipts::base64).toList();
        return new Receipt.Inclusion(Receipt.INCLUSION, auditId, requestId, seq, HEX.formatHex(hash),
                HEX.formatHex(previousHash), leafIndex, proof, checkpoint.line());
    }

    /** The consistency proof from the checkpoint of {@code oldSize} seals to the newest checkpoint. */
    public static Receipt.Consistency proveConsistency(Connection connection, long oldSize, List<SignedCheckpoint> checkpoints)
            throws SQLException {
        SignedCheckpoint older = checkpoints.stream().filter(c -> c.checkpoint().treeSize() == oldSize).findFirst()
                .orElseThrow(() -> new NotProvable("no checkpoint of tree size " + oldSize + " in the checkpoint log; "
                        + treeSizes(checkpoints), false));
        SignedCheckpoint newer = checkpoints.stream().max(Comparator.comparingLong(c -> c.checkpoint().treeSize()))
                .orElseThrow();
        List<byte[]> leaves = leavesMatching(connection, newer.checkpoint());
        if (!Arrays.equals(MerkleTree.root(leaves.subList(0, (int) oldSize)), older.checkpoint().rootHash())) {
            throw new NotProvable("the chain no longer matches the checkpoint of size " + oldSize
                    + ": run claimguard verify-chain with the checkpoints", false);
        }
        List<String> proof = MerkleTree.consistencyProof(leaves, oldSize).stream().map(Receipts::base64).toList();
        return new Receipt.Consistency(Receipt.CONSISTENCY, older.line(), newer.line(), proof);
    }

    /** The tree sizes there are to prove from (each checkpoint line's third field), so that a wrong one can be corrected. */
    static String treeSizes(List<SignedCheckpoint> checkpoints) {
        List<Long> sizes = checkpoints.stream().map(c -> c.checkpoint().treeSize()).distinct().sorted().toList();
        if (sizes.isEmpty()) {
            return "the checkpoint log is empty";
        }
        String listed = sizes.size() <= SIZES_SHOWN ? joined(sizes)
                : joined(sizes.subList(0, SIZES_SHOWN / 2)) + ", ..., "
                        + joined(sizes.subList(sizes.size() - SIZES_SHOWN / 2, sizes.size()));
        return "its checkpoints have the tree sizes " + listed + " (" + sizes.size() + " in all; the third field of each"
                + " line)";
    }

    private static String joined(List<Long> sizes) {
        return sizes.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** Checks a receipt with the public key alone; returns what it proves, or throws {@link ReceiptBroken} saying why not. */
    public static String verify(Receipt receipt, PublicKey publicKey) {
        // Java 17: no pattern switch over the sealed interface yet
        return receipt instanceof Receipt.Inclusion inclusion ? verifyInclusion(inclusion, publicKey)
                : verifyConsistency((Receipt.Consistency) receipt, publicKey);
    }

    private static String verifyInclusion(Receipt.Inclusion receipt, PublicKey publicKey) {
        Checkpoint checkpoint = signed(receipt.checkpoint(), "checkpoint", publicKey);
        byte[] sealHash = hash(receipt.sealHash(), "seal_hash");
        try {
            MerkleProofs.verifyInclusion(Rfc6962.leafHash(sealHash), receipt.leafIndex(), checkpoint.treeSize(),
                    hashes(receipt.inclusionProof(), "inclusion_proof"), checkpoint.rootHash());
        } catch (ProofException | IllegalArgumentException e) {
            throw new ReceiptBroken("the inclusion proof does not lead from seal_hash to the signed root: " + e.getMessage());
        }
        if (receipt.sealSeq() > checkpoint.headSeq()) {
            throw new ReceiptBroken("seal_seq %d comes after the checkpoint's head, seal seq %d"
                    .formatted(receipt.sealSeq(), checkpoint.headSeq()));
        }
        return ("audit_id %d (request id %s, seal seq %d) is seal number %d of the %d in the chain signed by %s at %s"
                + " (head: seal seq %d)").formatted(receipt.auditId(), receipt.requestId(), receipt.sealSeq(),
                receipt.leafIndex() + 1, checkpoint.treeSize(), checkpoint.origin(), checkpoint.time(), checkpoint.headSeq());
    }

    private static String verifyConsistency(Receipt.Consistency receipt, PublicKey publicKey) {
        Checkpoint older = signed(receipt.oldCheckpoint(), "old_checkpoint", publicKey);
        Checkpoint newer = signed(receipt.newCheckpoint(), "new_checkpoint", publicKey);
        try {
            MerkleProofs.verifyConsistency(older.treeSize(), newer.treeSize(), older.rootHash(), newer.rootHash(),
                    hashes(receipt.consistencyProof(), "consistency_proof"));
        } catch (ProofException | IllegalArgumentException e) {
            throw new ReceiptBroken("the consistency proof does not hold: " + e.getMessage());
        }
        return ("the chain signed at %s (%d seals) extends the one signed at %s (%d seals) unchanged")
                .formatted(newer.time(), newer.treeSize(), older.time(), older.treeSize());
    }

    public static String toJson(Receipt receipt) {
        return JSON.writeValueAsString(receipt) + "\n";
    }

    /** Reads a receipt; one that is not a ClaimGuard receipt is refused as broken, with what is wrong. */
    public static Receipt fromJson(String text) {
        try {
            JsonNode tree = JSON.readTree(text);
            String kind = tree.path("receipt").asString("");
            return switch (kind) {
                case Receipt.INCLUSION -> JSON.treeToValue(tree, Receipt.Inclusion.class);
                case Receipt.CONSISTENCY -> JSON.treeToValue(tree, Receipt.Consistency.class);
                default -> throw new ReceiptBroken("not a ClaimGuard receipt: \"receipt\" is neither " + Receipt.INCLUSION
                        + " nor " + Receipt.CONSISTENCY);
            };
        } catch (JacksonException e) {
            throw new ReceiptBroken("not a ClaimGuard receipt: " + e.getOriginalMessage());
        }
    }

    /**
     * The audit path of a leaf in the checkpoint's tree, read from the chain as it streams past (memory does not grow
     * with the chain) and given only when the leaves read give the checkpoint's root.
     */
    private static List<byte[]> inclusionMatching(Connection connection, Checkpoint checkpoint, ArchivedSeals archived,
            long leafIndex) throws SQLException {
        StreamedInclusion tree = new StreamedInclusion(leafIndex, checkpoint.treeSize());
        long[] last = {Long.MIN_VALUE};
        for (SealLeaves.Leaf leaf : archived.leaves()) {
            if (tree.appended() == checkpoint.treeSize()) {
                break;
            }
            tree.append(leaf.leafHash());
            last[0] = leaf.seq();
        }
        if (tree.appended() < checkpoint.treeSize()) {
            SealLeaves.readAfter(connection, archived.lastSeq(), leaf -> {
                tree.append(leaf.leafHash());
                last[0] = leaf.seq();
                return tree.appended() < checkpoint.treeSize();
            });
        }
        if (tree.appended() < checkpoint.treeSize() || last[0] != checkpoint.headSeq()
                || !Arrays.equals(tree.root(), checkpoint.rootHash())) {
            throw new NotProvable("the chain no longer matches the checkpoint (" + checkpoint.describe()
                    + "): run claimguard verify-chain with the checkpoints", false);
        }
        return tree.proof();
    }

    /** The leaf hashes of the checkpoint's tree, read from the live chain and checked against the checkpoint. */
    private static List<byte[]> leavesMatching(Connection connection, Checkpoint checkpoint) throws SQLException {
        List<byte[]> leaves = new ArrayList<>();
        long[] last = {Long.MIN_VALUE};
        SealLeaves.readAfter(connection, Long.MIN_VALUE, leaf -> {
            leaves.add(leaf.leafHash());
            last[0] = leaf.seq();
            return leaves.size() < checkpoint.treeSize();
        });
        if (leaves.size() < checkpoint.treeSize() || last[0] != checkpoint.headSeq()
                || !Arrays.equals(MerkleTree.root(leaves), checkpoint.rootHash())) {
            throw new NotProvable("the chain no longer matches the checkpoint (" + checkpoint.describe()
                    + "): run claimguard verify-chain with the checkpoints", false);
        }
        return leaves;
    }

    private static Checkpoint signed(String line, String field, PublicKey publicKey) {
        SignedCheckpoint checkpoint;
        try {
            checkpoint = SignedCheckpoint.parse(line == null ? "" : line);
        } catch (IllegalArgumentException e) {
            throw new ReceiptBroken(field + ": " + e.getMessage());
        }
        String problem = checkpoint.signatureProblem(publicKey);
        if (problem != null) {
            throw new ReceiptBroken(field + ": " + problem);
        }
        return checkpoint.checkpoint();
    }

    private static byte[] hash(String hex, String field) {
        try {
            byte[] hash = HEX.parseHex(hex == null ? "" : hex);
            if (hash.length == Rfc6962.HASH_SIZE) {
                return hash;
            }
        } catch (IllegalArgumentException e) {
            // named below
        }
        throw new ReceiptBroken(field + " is not a 32-byte hash in hex");
    }

    private static List<byte[]> hashes(List<String> base64, String field) {
        if (base64 == null) {
            throw new ReceiptBroken(field + " is missing");
        }
        try {
            return base64.stream().map(Base64.getDecoder()::decode).toList();
        } catch (IllegalArgumentException e) {
            throw new ReceiptBroken(field + " holds a value that is not base64");
        }
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static boolean rowExists(Connection connection, long auditId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(ROW_EXISTS)) {
            query.setLong(1, auditId);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }
}
