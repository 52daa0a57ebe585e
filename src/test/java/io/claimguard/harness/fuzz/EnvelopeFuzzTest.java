package io.claimguard.harness.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A reduced fuzz run in every build; the full million runs with the documented command. */
class EnvelopeFuzzTest {

    @Test
    @DisplayName("Scenario: Mutated envelopes are only ever read or rejected, and never PASS where a rule must fire")
    void mutatedEnvelopesAreReadOrRejectedAndNeverPassWhereARuleMustFire() {
        long cases = Long.getLong("claimguard.fuzz.cases", 10_000);
        EnvelopeFuzzer.Report report = new EnvelopeFuzzer(EnvelopeMutator.fromExamples(Path.of("examples"))).run(cases, 20261202L);
        System.out.println(report.summary());

        assertThat(report.findings()).as(report.summary()).isEmpty();
        assertThat(report.accepted()).as("mutations that still read as envelopes").isPositive();
        assertThat(report.rejectedByReason()).as("mutations rejected, by reason").containsKeys("not_json", "not_utf8");
    }
}
