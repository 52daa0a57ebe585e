package io.claimguard.seal;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link AuditChainVerifier} found.
 *
 * @param firstBreak the first broken link, as the verify command prints it; null when the chain is intact
 * @param verifiedSeals the seals found intact (before the first break, if any), after {@code startedAfter}
 * @param unsealedRows audit rows that have no seal yet: newer than the sealer's last round, or waiting for it
 * @param headSeq seq of the last seal of an intact chain; null when broken or when nothing is sealed yet
 * @param headHash hash of that seal, in hex
 * @param lastIntactSeq seq of the last seal found intact, broken or not; null when none was
 * @param startedAfter the trusted seal the walk began after, as the output names it; null when it began at the
 *     chain's start
 */
public record ChainReport(String firstBreak, long verifiedSeals, long unsealedRows, Long headSeq, String headHash,
        Long lastIntactSeq, String startedAfter) {

    static ChainReport intact(long verifiedSeals, long unsealedRows, long headSeq, String headHash, String startedAfter) {
        return new ChainReport(null, verifiedSeals, unsealedRows, headSeq, headHash, headSeq, startedAfter);
    }

    static ChainReport empty(long unsealedRows, String startedAfter) {
        return new ChainReport(null, 0, unsealedRows, null, null, null, startedAfter);
    }

    static ChainReport broken(String firstBreak, long verifiedSeals, long unsealedRows, Long lastIntactSeq,
            String startedAfter) {
        return new ChainReport(firstBreak, verifiedSeals, unsealedRows, null, null, lastIntactSeq, startedAfter);
    }

    public boolean intact() {
        return firstBreak == null;
    }

    /** The verify command's output: the verdict first, then what to note down or where the intact part ends. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (intact() && startedAfter == null) {
            lines.add("audit chain intact: %d rows sealed, %d not yet sealed".formatted(verifiedSeals, unsealedRows));
        } else if (intact()) {
            lines.add("audit chain intact after %s: %d seals verified after it, %d rows not yet sealed"
                    .formatted(startedAfter, verifiedSeals, unsealedRows));
        } else {
            lines.add(firstBreak);
            lines.add(startedAfter == null ? "the %d seals before it are intact".formatted(verifiedSeals)
                    : "the %d seals between %s and it are intact".formatted(verifiedSeals, startedAfter));
        }
        if (intact() && headSeq != null) {
            lines.add("chain head: seal seq %d, hash %s".formatted(headSeq, headHash));
        }
        return lines;
    }
}
