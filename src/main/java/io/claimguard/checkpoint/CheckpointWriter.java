package io.claimguard.checkpoint;

import io.claimguard.merkle.CompactRange;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.SealRoundListener;
import io.claimguard.support.FailureStreak;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs the chain's head every {@code claimguard.checkpoint.period} and when the service stops, on the sealer's
 * thread after its round, and appends the checkpoint to the {@link CheckpointLog}: only when the head moved since the
 * last checkpoint, and never for a head whose link is broken.
 *
 * <p>The Merkle root is kept incrementally ({@link CompactRange}): the first checkpoint reads every seal's hash
 * once (32 bytes a seal), later ones only the seals added since. That first read also compares the chain with the
 * newest checkpoint already in the log, and says at ERROR if the chain no longer contains it.
 */
public final class CheckpointWriter implements SealRoundListener {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);

    private final DataSource dataSource;
    private final CheckpointLog log;
    private final Ed25519Keys.SigningKey key;
    private final String origin;
    private final Duration period;
    private final Clock clock;
    private final FailureStreak failures;

    // touched only by the sealer's thread
    private CompactRange tree;
    private long headSeq;
    private byte[] headHash;
    private long checkpointedSize;
    private long nextDueNanos = System.nanoTime();

    public CheckpointWriter(DataSource dataSource, CheckpointLog log, Ed25519Keys.SigningKey key, String origin,
            Duration period, Clock clock) {
        this.dataSource = dataSource;
        this.log = log;
        this.key = key;
        this.origin = origin;
        this.period = period;
        this.clock = clock;
        this.failures = new FailureStreak(LOG, "writing a checkpoint to " + log.describe(), "every " + period.toString().substring(2).toLowerCase(Locale.ROOT));
    }

    @Override
    public void afterSealRound() {
        if (System.nanoTime() - nextDueNanos < 0) {
            return;
        }
        nextDueNanos = System.nanoTime() + period.toNanos();
        tryCheckpoint();
    }

    @Override
    public void sealerStopping() {
        tryCheckpoint();
    }

    private void tryCheckpoint() {
        try {
            Optional<SignedCheckpoint> written = checkpointIfMoved();
            failures.succeeded(written.map(c -> "wrote " + c.checkpoint().describe()).orElse("the head had not moved"));
        } catch (SQLException | IOException | RuntimeException e) {
            failures.failed(e);
        }
    }

    /** Signs and appends a checkpoint of the current head if it moved; returns it, or empty when nothing was written. */
    public Optional<SignedCheckpoint> checkpointIfMoved() throws SQLException, IOException {
        try (Connection connection = dataSource.getConnection()) {
            // one snapshot for the head check and the seals read
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            try {
                String broken = AuditChainVerifier.headLinkBreak(connection);
                if (broken != null) {
                    throw new IllegalStateException("the chain's head link is broken, no checkpoint signed: " + broken);
                }
                catchUp(connection);
            } finally {
                connection.rollback();
            }
        }
        if (tree.size() == 0 || tree.size() == checkpointedSize) {
            return Optional.empty();
        }
        Checkpoint checkpoint = new Checkpoint(origin, tree.size(), tree.root(), headSeq, headHash, clock.instant());
        SignedCheckpoint signed = SignedCheckpoint.sign(checkpoint, key.privateKey(), key.publicKey());
        log.append(signed);
        checkpointedSize = tree.size();
        LOG.debug("checkpoint written: {}", checkpoint.describe());
        return Optional.of(signed);
    }

    /** Adds the seals made since the last call to the tree; the first call reads them all. */
    private void catchUp(Connection connection) throws SQLException, IOException {
        if (tree == null) {
            Optional<SignedCheckpoint> newest = log.latest();
            // the seals archived and dropped (claimguard archive) are the tree's first leaves
            ArchivedTree archived = ArchivedTree.newest(connection);
            CompactRange fresh = archived == null ? new CompactRange() : archived.tree();
            long[] head = {archived == null ? Long.MIN_VALUE : archived.lastSeq()};
            byte[][] hash = {archived == null ? null : archived.lastHash()};
            SealLeaves.readAfter(connection, head[0], leaf -> {
                fresh.append(leaf.leafHash());
                head[0] = leaf.seq();
                hash[0] = leaf.sealHash();
                newest.ifPresent(c -> compareAtItsSize(c.checkpoint(), fresh, leaf));
                return true;
            });
            newest.filter(c -> c.checkpoint().treeSize() > fresh.size()).ifPresent(c -> LOG.error(
                    "the audit chain holds {} seals, fewer than the newest checkpoint in {} ({}): seals were removed;"
                            + " run claimguard verify-chain with --checkpoints", fresh.size(), log.describe(),
                    c.checkpoint().describe()));
            tree = fresh;
            headSeq = head[0];
            headHash = hash[0];
            checkpointedSize = newest.map(c -> c.checkpoint().treeSize()).orElse(0L);
            return;
        }
        // the head moves with each leaf added, so that a read cut short by a failure goes on where it stopped
        SealLeaves.readAfter(connection, headSeq, leaf -> {
            tree.append(leaf.leafHash());
            headSeq = leaf.seq();
            headHash = leaf.sealHash();
            return true;
        });
    }

    private void compareAtItsSize(Checkpoint newest, CompactRange tree, SealLeaves.Leaf leaf) {
        if (tree.size() == newest.treeSize()
                && (leaf.seq() != newest.headSeq() || !Arrays.equals(tree.root(), newest.rootHash()))) {
            LOG.error("the audit chain no longer matches the newest checkpoint in {} ({}): it was rewritten;"
                    + " run claimguard verify-chain with --checkpoints", log.describe(), newest.describe());
        }
    }
}
