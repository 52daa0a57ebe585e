package io.claimguard.checkpoint;

import java.util.List;
import java.util.Optional;

/**
 * The seals that were archived and dropped from the database (claimguard archive): the first leaves of the Merkle tree,
 * in seq order, with what a receipt needs of each. The live seals continue after {@link #lastSeq()}.
 */
public interface ArchivedSeals {

    /** No archive: every seal is live. */
    ArchivedSeals NONE = new ArchivedSeals() {
        @Override
        public List<SealLeaves.Leaf> leaves() {
            return List.of();
        }

        @Override
        public Optional<Sealed> sealOf(long auditId) {
            return Optional.empty();
        }

        @Override
        public List<SignedCheckpoint> checkpoints() {
            return List.of();
        }
    };

    /** One archived audit's seal. */
    record Sealed(long auditId, String requestId, long seq, byte[] hash, byte[] previousHash, long leafIndex) {
    }

    /** Every archived seal as a leaf, in seq order: leaf i is the (i+1)-th seal of the chain. */
    List<SealLeaves.Leaf> leaves();

    /** The archived seal of an audit row, if it was archived. */
    Optional<Sealed> sealOf(long auditId);

    /** The signed checkpoint at the end of each archive, oldest first. */
    List<SignedCheckpoint> checkpoints();

    /** The seq of the last archived seal; {@link Long#MIN_VALUE} when none was archived. */
    default long lastSeq() {
        List<SealLeaves.Leaf> leaves = leaves();
        return leaves.isEmpty() ? Long.MIN_VALUE : leaves.get(leaves.size() - 1).seq();
    }
}
