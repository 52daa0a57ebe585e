package io.claimguard.checkpoint;

import io.claimguard.checkpoint.CheckpointLog.LoggedCheckpoint;
import io.claimguard.merkle.CompactRange;
import java.security.PublicKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Checks the audit chain as stored against signed checkpoints kept outside the database. Each checkpoint's signature
 * must hold under the public key; then, in one pass over the seals in seq order, the first {@code treeSize} seals must
 * still end with the checkpoint's head seal (same seq, same hash) and give its Merkle root. So it detects what the
 * chain cannot on its own: seals removed from the end (a checkpoint beyond the chain's end) and a chain rewritten and
 * re-hashed from some point on (a checkpoint whose head or root no longer matches), each named by the checkpoint and
 * the seal seq.
 *
 * <p>It reads only {@code seq} and {@code hash} of the seals (the row contents are {@link
 * io.claimguard.seal.AuditChainVerifier}'s part), in one read-only REPEATABLE READ transaction.
 */
public final class CheckpointVerifier {

    private CheckpointVerifier() {
    }

    public static CheckpointReport verify(Connection connection, List<LoggedCheckpoint> entries, PublicKey publicKey)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        List<Located> signed = signed(entries, publicKey, problems);
        int matching = inSnapshot(connection, () -> compareWithChain(connection, signed, problems));
        return new CheckpointReport(problems, entries.size(), matching, newest(signed));
    }

    /**
     * The checkpoint an incremental verification trusts and starts from: the one before the newest signed checkpoint
     * (so that the newest is checked to extend it), or the newest when it is the only one; null when none is signed.
     */
    public static Checkpoint trustedStart(List<LoggedCheckpoint> entries, PublicKey publicKey) {
        List<Located> bySize = bySize(signed(entries, publicKey, new ArrayList<>()));
        if (bySize.isEmpty()) {
            return null;
        }
        Checkpoint newest = bySize.get(bySize.size() - 1).checkpoint();
        return bySize.stream().map(Located::checkpoint).filter(c -> c.treeSize() < newest.treeSize())
                .reduce((first, second) -> second).orElse(newest);
    }

    /**
     * Checks every entry's signature and, against the chain, only the newest signed checkpoint and the one before
     * it: each head seal still has the signed hash, and the seals between them are as many as their sizes differ.
     * Together with the seals after the older one verified link by link ({@code AuditChainVerifier.verifyAfter}), it
     * shows the newest checkpoint extends the one before; the Merkle roots and the older checkpoints are the full
     * verification's ({@link #verify}).
     */
    public static CheckpointReport verifyNewest(Connection connection, List<LoggedCheckpoint> entries,
            PublicKey publicKey) throws SQLException {
        List<String> problems = new ArrayList<>();
        List<Located> bySize = bySize(signed(entries, publicKey, problems));
        if (bySize.isEmpty()) {
            return new CheckpointReport(problems, entries.size(), 0, null);
        }
        Located newest = bySize.get(bySize.size() - 1);
        Located previous = bySize.stream().filter(l -> l.checkpoint().treeSize() < newest.checkpoint().treeSize())
                .reduce((first, second) -> second).orElse(null);
        int matching = inSnapshot(connection, () -> {
            int holding = 0;
            if (previous != null && headHolds(connection, previous, problems)) {
                holding++;
            }
            if (headHolds(connection, newest, problems)
                    && (previous == null || extendsOlder(connection, previous, newest, problems))) {
                holding++;
            }
            return holding;
        });
        return new CheckpointReport(problems, entries.size(), matching, newest.checkpoint());
    }

    private static List<Located> signed(List<LoggedCheckpoint> entries, PublicKey publicKey, List<String> problems) {
        List<Located> signed = new ArrayList<>();
        for (LoggedCheckpoint entry : entries) {
            if (entry.checkpoint() == null) {
                problems.add("checkpoint %s: %s".formatted(entry.location(), entry.problem()));
                continue;
            }
            String signatureProblem = entry.checkpoint().signatureProblem(publicKey);
            if (signatureProblem != null) {
                problems.add("checkpoint %s: %s".formatted(entry.location(), signatureProblem));
            } else {
                signed.add(new Located(entry.location(), entry.checkpoint().checkpoint()));
            }
        }
        if (entries.isEmpty()) {
            problems.add("no checkpoint found: the checkpoint log is empty");
        }
        return signed;
    }

    private static List<Located> bySize(List<Located> signed) {
        return signed.stream().sorted(Comparator.comparingLong(l -> l.checkpoint().treeSize())).toList();
    }

    private static Checkpoint newest(List<Located> signed) {
        return signed.stream().map(Located::checkpoint).max(Comparator.comparingLong(Checkpoint::treeSize)).orElse(null);
    }

    private interface InSnapshot {
        int run() throws SQLException;
    }

    private static int inSnapshot(Connection connection, InSnapshot work) throws SQLException {
        connection.setReadOnly(true);
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            return work.run();
        } finally {
            connection.rollback();
        }
    }

    private static boolean headHolds(Connection connection, Located located, List<String> problems) throws SQLException {
        Checkpoint checkpoint = located.checkpoint();
        byte[] stored;
        try (PreparedStatement query = connection.prepareStatement("SELECT hash FROM claimguard.audit_seal WHERE seq = ?")) {
            query.setLong(1, checkpoint.headSeq());
            try (ResultSet rs = query.executeQuery()) {
                stored = rs.next() ? rs.getBytes(1) : null;
            }
        }
        if (stored == null) {
            problems.add("checkpoint %s (%s): seal seq %d is gone: seals at or before it were removed"
                    .formatted(located.location(), checkpoint.describe(), checkpoint.headSeq()));
            return false;
        }
        if (!Arrays.equals(stored, checkpoint.headHash())) {
            problems.add(("checkpoint %s (%s): seal seq %d has another hash than the one signed: the chain was rewritten"
                    + " and re-hashed at or before seal seq %d").formatted(located.location(), checkpoint.describe(),
                    checkpoint.headSeq(), checkpoint.headSeq()));
            return false;
        }
        return true;
    }

    /** The seals after the older head up to the newer one are as many as the newer checkpoint adds. */
    private static boolean extendsOlder(Connection connection, Located older, Located newer, List<String> problems)
            throws SQLException {
        long between;
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT count(*) FROM claimguard.audit_seal WHERE seq > ? AND seq <= ?")) {
            query.setLong(1, older.checkpoint().headSeq());
            query.setLong(2, newer.checkpoint().headSeq());
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                between = rs.getLong(1);
            }
        }
        long signed = newer.checkpoint().treeSize() - older.checkpoint().treeSize();
        if (between != signed) {
            problems.add(("checkpoint %s (%s): %d seals lie between it and the checkpoint before it (%s), not the %d"
                    + " signed: seals were removed or inserted between seal seq %d and seal seq %d").formatted(
                    newer.location(), newer.checkpoint().describe(), between, older.checkpoint().describe(), signed,
                    older.checkpoint().headSeq(), newer.checkpoint().headSeq()));
            return false;
        }
        return true;
    }

    /** Walks the seals once, comparing each checkpoint when the tree reaches its size; returns how many matched. */
    private static int compareWithChain(Connection connection, List<Located> signed, List<String> problems)
            throws SQLException {
        List<Located> bySize = bySize(signed);
        CompactRange tree = new CompactRange();
        int[] next = {0};
        int[] matching = {0};
        long[] lastMatchingHead = {Long.MIN_VALUE};
        long[] chainHead = {Long.MIN_VALUE};
        SealLeaves.readAfter(connection, Long.MIN_VALUE, leaf -> {
            tree.append(leaf.leafHash());
            chainHead[0] = leaf.seq();
            while (next[0] < bySize.size() && bySize.get(next[0]).checkpoint().treeSize() == tree.size()) {
                Located located = bySize.get(next[0]++);
                String mismatch = mismatch(located, tree, leaf, lastMatchingHead[0]);
                if (mismatch == null) {
                    matching[0]++;
                    lastMatchingHead[0] = leaf.seq();
                } else {
                    problems.add(mismatch);
                }
            }
            return next[0] < bySize.size();
        });
        for (int i = next[0]; i < bySize.size(); i++) {
            Located beyond = bySize.get(i);
            Checkpoint checkpoint = beyond.checkpoint();
            if (chainHead[0] >= checkpoint.headSeq()) {
                problems.add(("checkpoint %s (%s): the chain holds fewer than the %d seals signed up to seal seq %d: seals"
                        + " at or before seal seq %d were removed, %s").formatted(beyond.location(), checkpoint.describe(),
                        checkpoint.treeSize(), checkpoint.headSeq(), checkpoint.headSeq(), since(lastMatchingHead[0])));
            } else {
                problems.add(("checkpoint %s (%s): the chain holds only %d seals now%s: seal seq %d and the seals before"
                        + " it back to the chain's end were removed").formatted(beyond.location(), checkpoint.describe(),
                        tree.size(), chainHead[0] == Long.MIN_VALUE ? "" : ", ending at seal seq " + chainHead[0],
                        checkpoint.headSeq()));
            }
        }
        return matching[0];
    }

    private static String mismatch(Located located, CompactRange tree, SealLeaves.Leaf leaf, long lastMatchingHead) {
        Checkpoint checkpoint = located.checkpoint();
        String since = since(lastMatchingHead);
        if (leaf.seq() != checkpoint.headSeq()) {
            return ("checkpoint %s (%s): the chain's seal number %d is seal seq %d now, not %d: seals were removed or"
                    + " inserted at or before seal seq %d, %s").formatted(located.location(), checkpoint.describe(),
                    checkpoint.treeSize(), leaf.seq(), checkpoint.headSeq(), checkpoint.headSeq(), since);
        }
        if (!Arrays.equals(leaf.sealHash(), checkpoint.headHash())) {
            return ("checkpoint %s (%s): seal seq %d has another hash than the one signed: the chain was rewritten and"
                    + " re-hashed at or before seal seq %d, %s").formatted(located.location(), checkpoint.describe(),
                    checkpoint.headSeq(), checkpoint.headSeq(), since);
        }
        if (!Arrays.equals(tree.root(), checkpoint.rootHash())) {
            return ("checkpoint %s (%s): the first %d seals no longer give the signed root: a seal before seq %d was"
                    + " changed, %s").formatted(located.location(), checkpoint.describe(), checkpoint.treeSize(),
                    checkpoint.headSeq(), since);
        }
        return null;
    }

    /** Where the change can have started: after the head of the last checkpoint that still matches. */
    private static String since(long lastMatchingHead) {
        return lastMatchingHead == Long.MIN_VALUE ? "from the start of the chain"
                : "after seal seq " + lastMatchingHead + ", the head of the last checkpoint that still matches";
    }

    private record Located(String location, Checkpoint checkpoint) {
    }
}
