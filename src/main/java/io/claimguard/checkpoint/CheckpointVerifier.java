package io.claimguard.checkpoint;

import io.claimguard.checkpoint.CheckpointLog.LoggedCheckpoint;
import io.claimguard.merkle.CompactRange;
import java.security.PublicKey;
import java.sql.Connection;
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
        connection.setReadOnly(true);
        connection.setAutoCommit(false);
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        int matching;
        try {
            matching = compareWithChain(connection, signed, problems);
        } finally {
            connection.rollback();
        }
        Checkpoint newest = signed.stream().map(Located::checkpoint)
                .max(Comparator.comparingLong(Checkpoint::treeSize)).orElse(null);
        return new CheckpointReport(problems, entries.size(), matching, newest);
    }

    /** Walks the seals once, comparing each checkpoint when the tree reaches its size; returns how many matched. */
    private static int compareWithChain(Connection connection, List<Located> signed, List<String> problems)
            throws SQLException {
        List<Located> bySize = signed.stream().sorted(Comparator.comparingLong(l -> l.checkpoint().treeSize())).toList();
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
