package io.claimguard.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.domain.GuardDecision;
import io.claimguard.domain.GuardReason;
import io.claimguard.domain.Verdict;
import io.claimguard.replay.AuditSelection.StoredAudit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReplayReportTest {

    @Test
    @DisplayName("Scenario: The report counts the changes and names the inputs by reason")
    void countsAndNames() {
        List<ReplayOutcome> outcomes = List.of(
                outcome(11, "default@1", Verdict.PASS, List.of(), Verdict.LOW_CONFID,
                        new GuardReason("evidence.unknown_invocation", Verdict.LOW_CONFID, "inv-9")),
                outcome(12, "default@1", Verdict.PASS, List.of(), Verdict.PASS),
                outcome(13, "strict@2", Verdict.REJECT, List.of("gatekeeper.fail"), Verdict.LOW_CONFID,
                        new GuardReason("gatekeeper.fail", Verdict.LOW_CONFID, "failed")),
                outcome(14, "default@1", Verdict.LOW_CONFID, List.of("gatekeeper.fail"), Verdict.REJECT,
                        new GuardReason("gatekeeper.fail", Verdict.REJECT, "failed"),
                        new GuardReason("evidence.unknown_invocation", Verdict.LOW_CONFID, "inv-9")));

        assertThat(ReplayReport.lines("strict@3", outcomes, List.of("audit 15 (req-15): not an object"))).containsExactly(
                "replayed 4 audits (recorded under default@1 (3), strict@2 (1)) under strict@3: 2 stricter, 1 less strict,"
                        + " 1 unchanged, 1 not replayed",
                "  evidence.unknown_invocation: PASS -> LOW_CONFID: req-11 (audit 11)",
                "  gatekeeper.fail: LOW_CONFID -> REJECT: req-14 (audit 14)",
                "  gatekeeper.fail: REJECT -> LOW_CONFID: req-13 (audit 13)",
                "  not replayed: audit 15 (req-15): not an object");
        assertThat(ReplayReport.changed(outcomes)).isEqualTo(3);
    }

    @Test
    void aLongListIsBounded() {
        List<ReplayOutcome> outcomes = new ArrayList<>();
        for (int id = 1; id <= ReplayReport.LISTED + 3; id++) {
            outcomes.add(outcome(id, "default@1", Verdict.LOW_CONFID, List.of(), Verdict.PASS));
        }

        List<String> lines = ReplayReport.lines("lenient@1", outcomes, List.of());

        assertThat(lines.get(0)).isEqualTo("replayed 13 audits (recorded under default@1) under lenient@1: 0 stricter,"
                + " 13 less strict, 0 unchanged");
        assertThat(lines.get(1)).startsWith("  " + ReplayReport.MODEL_VERDICT + ": LOW_CONFID -> PASS: req-1 (audit 1), ")
                .endsWith("req-10 (audit 10), and 3 more");
    }

    private static ReplayOutcome outcome(long auditId, String policy, Verdict recorded, List<String> recordedReasons,
            Verdict replayed, GuardReason... reasons) {
        return new ReplayOutcome(new StoredAudit(auditId, "req-" + auditId, recorded, policy, recordedReasons, "{}"),
                new GuardDecision(Optional.of(Verdict.PASS), replayed, List.of(reasons), replayed != Verdict.PASS));
    }
}
