package io.claimguard.checkpoint;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link CheckpointVerifier} found.
 *
 * @param problems each checkpoint that does not hold, named with where it is and which seal seq; empty when all hold
 * @param entries the entries read from the checkpoint log
 * @param matching the checkpoints whose signature holds and which the chain still contains
 * @param newest the newest checkpoint with a valid signature; null when there is none
 */
public record CheckpointReport(List<String> problems, int entries, int matching, Checkpoint newest) {

    public CheckpointReport {
        problems = List.copyOf(problems);
    }

    public boolean intact() {
        return problems.isEmpty();
    }

    /** The verify command's output for the checkpoints: the verdict first, then each problem. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (intact()) {
            lines.add("checkpoints intact: %d signed checkpoints verified against the chain, the newest %s"
                    .formatted(matching, newest.describe()));
        } else {
            lines.add("checkpoints broken: %d of %d checkpoint entries verify against the chain, the rest do not:"
                    .formatted(matching, entries));
            lines.addAll(problems);
        }
        return lines;
    }
}
