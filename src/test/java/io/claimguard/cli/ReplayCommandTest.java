package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.cli.ClaimGuardCliTest.Run;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The replay command's usage errors, found before any database is reached. */
class ReplayCommandTest {

    private static final String NO_DATABASE = "jdbc:postgresql://127.0.0.1:1/nowhere";

    @Test
    @DisplayName("Scenario: A replay without a selection, or under a policy the service would refuse, is a usage error")
    void usageErrors() {
        Run noSelector = Run.of("replay", "--db-url", NO_DATABASE);
        Run allAndMore = Run.of("replay", "--all", "--verdict", "PASS", "--db-url", NO_DATABASE);
        Run unknownRule = Run.of("replay", "--all", "--policy-name", "p", "--policy-version", "2",
                "--rule-cap", "gatekeeper.made_up=REJECT", "--db-url", NO_DATABASE);
        Run looser = Run.of("replay", "--all", "--policy-name", "p", "--policy-version", "2",
                "--rule-cap", "gatekeeper.fail=PASS", "--db-url", NO_DATABASE);
        Run badCap = Run.of("replay", "--all", "--policy-name", "p", "--policy-version", "2",
                "--finding-cap", "evidence.unknown_invocation=LOW", "--db-url", NO_DATABASE);
        Run anotherDefault = Run.of("replay", "--all", "--rule-cap", "gatekeeper.fail=REJECT", "--db-url", NO_DATABASE);

        for (Run run : new Run[] {noSelector, allAndMore, unknownRule, looser, badCap, anotherDefault}) {
            assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err()).startsWith("claimguard replay: ").contains("Try 'claimguard replay --help'")
                    .doesNotContain("cannot reach");
        }
        assertThat(noSelector.err()).contains("Select what to replay: at least one of --request-id, --verdict, --since, --until, or --all");
        assertThat(allAndMore.err()).contains("--all selects every audit");
        assertThat(unknownRule.err()).contains("claimguard.policy.rule-caps: gatekeeper.made_up is not one of [");
        assertThat(looser.err()).contains("gatekeeper.fail may not cap at PASS");
        assertThat(badCap.err()).contains("claimguard.policy.finding-caps.evidence.unknown_invocation: LOW is not PASS, LOW_CONFID or REJECT");
        assertThat(anotherDefault.err()).contains("default@1 is the contract's policy");
    }

    @Test
    void anUnreachableDatabaseIsNamed() {
        Run run = Run.of("replay", "--all", "--db-url", NO_DATABASE);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(run.err()).startsWith("claimguard replay: cannot reach the audit database at " + NO_DATABASE);
    }
}
