package io.claimguard.checkpoint;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where signed checkpoints are kept, outside the audit database: appended, never rewritten. {@link DirectoryCheckpointLog}
 * is the default; object storage with retention locks (S3 Object Lock, for example) fits behind the same interface.
 */
public interface CheckpointLog {

    /** Appends the checkpoint durably: when this returns, it survives a crash. */
    void append(SignedCheckpoint checkpoint) throws IOException;

    /** Every entry, oldest first, including the lines that are not checkpoints (a verifier must see those). */
    List<LoggedCheckpoint> entries() throws IOException;

    /** The newest checkpoint that parses, if any. */
    default Optional<SignedCheckpoint> latest() throws IOException {
        List<LoggedCheckpoint> entries = entries();
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).checkpoint() != null) {
                return Optional.of(entries.get(i).checkpoint());
            }
        }
        return Optional.empty();
    }

    /** Where it is, for log lines and messages. */
    String describe();

    /**
     * One entry of a log.
     *
     * @param location where it is ({@code checkpoints-2026-12-04.log line 3})
     * @param checkpoint the checkpoint; null when the entry does not parse
     * @param problem why it does not parse; null when it does
     */
    record LoggedCheckpoint(String location, SignedCheckpoint checkpoint, String problem) {
    }
}
