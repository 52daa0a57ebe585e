package io.claimguard.seal;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link AuditChainVerifier} found.
 *
 * @param firstBreak the first broken link, as the verify command prints it; null when the chain is intact
 * @param verifiedSeals the seals found intact (before the first break, if any)
 * @param unsealedRows audit rows that have no seal yet: newer than the sealer's last round, or waiting for it
 * @param headSeq seq of the last seal of an intact chain; null when broken or when nothing is sealed yet
 * @param headHash hash of that seal, in hex
 */
public record ChainReport(String firstBreak, long verifiedSeals, long unsealedRows, Long headSeq, String headHash) {

    static ChainReport intact(long verifiedSeals, long unsealedRows, long headSeq, String headHash) {
        return new ChainReport(null, verifiedSeals, unsealedRows, headSeq, headHash);
    }

    static ChainReport empty(long unsealedRows) {
        return new ChainReport(null, 0, unsealedRows, null, null);
    }

    static ChainReport broken(String firstBreak, long verifiedSeals, long unsealedRows) {
        return new ChainReport(firstBreak, verifiedSeals, unsealedRows, null, null);
    }

    public boolean intact() {
        return firstBreak == null;
    }

    /** The verify command's output: the verdict first, then what to note down or where the intact part ends. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (intact()) {
            lines.add("audit chain intact: %d rows sealed, %d not yet sealed".formatted(verifiedSeals, unsealedRows));
            if (headSeq != null) {
                lines.add("chain head: seal seq %d, hash %s".formatted(headSeq, headHash));
            }
        } else {
            lines.add(firstBreak);
            lines.add("the %d seals before it are intact".formatted(verifiedSeals));
        }
        return lines;
    }
}
