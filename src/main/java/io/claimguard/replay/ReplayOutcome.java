package io.claimguard.replay;

import io.claimguard.audit.AuditDocument;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.GuardReason;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import io.claimguard.replay.AuditSelection.StoredAudit;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What one stored audit's verdict becomes under another policy.
 *
 * @param audit the audit row as recorded
 * @param replayed the guard decision under the replay's policy
 */
public record ReplayOutcome(StoredAudit audit, GuardDecision replayed) {

    /** Which way a verdict moved. */
    enum Change {
        STRICTER, LESS_STRICT, UNCHANGED
    }

    /**
     * Re-judges a stored audit under the policy: its envelope rebuilt from the audit document, read and judged as the
     * service does. A pure function of the stored row and the policy.
     *
     * @throws EnvelopeRejectedException when the stored envelope cannot be read again (it was accepted once: only
     *     values the database had to spell out could make it so)
     */
    static ReplayOutcome of(StoredAudit audit, EnvelopeReader reader, Policy policy) throws EnvelopeRejectedException {
        byte[] envelope = AuditDocument.envelope(audit.auditId(), audit.document()).getBytes(StandardCharsets.UTF_8);
        return new ReplayOutcome(audit, Verification.of(reader.read(envelope), policy).guard());
    }

    Verdict replayedVerdict() {
        return replayed.effectiveVerdict();
    }

    Change change() {
        if (replayedVerdict().isStricterThan(audit.recordedVerdict())) {
            return Change.STRICTER;
        }
        return audit.recordedVerdict().isStricterThan(replayedVerdict()) ? Change.LESS_STRICT : Change.UNCHANGED;
    }

    /**
     * The reason codes that explain the change: for a stricter verdict the replayed reasons whose cap is the new
     * verdict; for a less strict one the recorded reasons that no longer cap as strictly as the recorded verdict.
     * Empty when no reason explains it (the model's own verdict).
     */
    List<String> causes() {
        return switch (change()) {
            case STRICTER -> replayed.reasons().stream().filter(reason -> reason.cap() == replayedVerdict())
                    .map(GuardReason::code).distinct().toList();
            case LESS_STRICT -> audit.recordedReasons().stream().filter(code -> replayed.reasons().stream()
                    .noneMatch(reason -> reason.code().equals(code) && reason.cap() == audit.recordedVerdict()))
                    .distinct().toList();
            case UNCHANGED -> List.of();
        };
    }
}
