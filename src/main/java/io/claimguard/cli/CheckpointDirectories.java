package io.claimguard.cli;

import io.claimguard.checkpoint.CheckpointLog.LoggedCheckpoint;
import io.claimguard.checkpoint.DirectoryCheckpointLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The checkpoint directories a command reads ({@code --checkpoints}, repeatable: one per instance). */
final class CheckpointDirectories {

    @Option(names = "--checkpoints", paramLabel = "DIR",
            description = "a checkpoint directory (the service's claimguard.checkpoint.directory, or a copy); repeat for several")
    List<Path> directories = new ArrayList<>();

    boolean given() {
        return !directories.isEmpty();
    }

    /** Every entry of every directory, in order; a directory that cannot be read is a {@link ToolFailure}. */
    List<LoggedCheckpoint> entries() {
        List<LoggedCheckpoint> entries = new ArrayList<>();
        for (Path directory : directories) {
            try {
                entries.addAll(new DirectoryCheckpointLog(directory).entries());
            } catch (IOException e) {
                throw new ToolFailure("cannot read the checkpoints in " + directory, e);
            }
        }
        return entries;
    }
}
