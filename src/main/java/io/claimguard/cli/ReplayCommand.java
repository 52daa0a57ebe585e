package io.claimguard.cli;

import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import io.claimguard.replay.AuditSelection;
import io.claimguard.replay.Replay;
import io.claimguard.replay.ReplayReport;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Re-judges stored audits under another judgement policy and says what would have changed. The audit rows are never
 * touched: the outcomes go to {@code claimguard.replay_run} and {@code claimguard.replay_outcome}.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {
            "Re-judge stored audits under another policy; print what would have changed.",
            "Rebuilds each selected audit's envelope from verification_audit.audit, judges it under the policy given (as the service would under claimguard.policy) and compares the verdict with the recorded one: stricter, less strict or unchanged, by reason code, with the request ids. The outcomes are recorded in claimguard.replay_run and claimguard.replay_outcome; the audit rows are never changed. Replaying under the policy an audit records (default@1 for rows written before policies were recorded) changes nothing.",
            "Every kind of selector given narrows the selection; repeat --request-id or --verdict for several; --all selects every audit."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:replayed (verdicts that change are the answer, not an error), or nothing selected",
            "2:wrong arguments (no selector, a bad instant, an unknown code or verdict in a cap)",
            "3:the database unreachable"},
        footer = {"", "Examples:", "  claimguard replay --all --dry-run --policy-name strict --policy-version 2 --rule-cap gatekeeper.fail=REJECT",
            "  claimguard replay --since 2026-12-03T00:00:00Z --verdict PASS --policy-name evidence --policy-version 1 \\",
            "      --finding-cap evidence.unknown_invocation=LOW_CONFID"})
final class ReplayCommand implements Callable<Integer> {

    @Option(names = "--request-id", paramLabel = "ID", description = "a request id (repeatable)")
    private List<String> requestIds = new ArrayList<>();

    @Option(names = "--verdict", paramLabel = "VERDICT", description = "a recorded effective verdict: PASS, LOW_CONFID or REJECT (repeatable)")
    private List<Verdict> verdicts = new ArrayList<>();

    @Option(names = "--since", paramLabel = "INSTANT",
            description = "audits of inputs received at or after this instant (ISO-8601, e.g. 2026-12-03T21:00:00Z)")
    private Instant since;

    @Option(names = "--until", paramLabel = "INSTANT", description = "audits of inputs received before this instant")
    private Instant until;

    @Option(names = "--all", description = "every audit (instead of selectors)")
    private boolean all;

    @Option(names = "--policy-name", paramLabel = "NAME", defaultValue = "default",
            description = "the policy's name, as claimguard.policy.name (default: ${DEFAULT-VALUE})")
    private String policyName;

    @Option(names = "--policy-version", paramLabel = "N", defaultValue = "1",
            description = "the policy's version, as claimguard.policy.version (default: ${DEFAULT-VALUE})")
    private int policyVersion;

    @Option(names = "--rule-cap", paramLabel = "CODE=VERDICT",
            description = "a guard rule's cap, as claimguard.policy.rule-caps (repeatable), e.g. gatekeeper.fail=REJECT")
    private Map<String, String> ruleCaps = new LinkedHashMap<>();

    @Option(names = "--finding-cap", paramLabel = "CODE=VERDICT",
            description = "a finding's cap, as claimguard.policy.finding-caps (repeatable), e.g. evidence.unknown_invocation=LOW_CONFID")
    private Map<String, String> findingCaps = new LinkedHashMap<>();

    @Option(names = "--dry-run", description = "print what would change; record nothing")
    private boolean dryRun;

    @Mixin
    private DatabaseOptions database;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        AuditSelection selection = selection();
        Policy policy = policy();
        PrintWriter out = spec.commandLine().getOut();
        Instant startedAt = Instant.now();
        try (Connection connection = database.connect()) {
            Replay.Judged judged = Replay.judge(connection, selection, policy);
            if (judged.nothingSelected()) {
                out.println("nothing to replay: no audit matches the selection");
                return ExitCodes.OK;
            }
            ReplayReport.lines(policy.id(), judged.outcomes(), judged.notReplayed()).forEach(out::println);
            if (dryRun) {
                out.println("dry run: nothing recorded");
            } else {
                long run = Replay.record(connection, policy, selection, startedAt, judged.outcomes());
                out.println("recorded as replay run " + run + " (claimguard.replay_run, claimguard.replay_outcome)");
            }
            return ExitCodes.OK;
        } catch (SQLException e) {
            throw new ToolFailure("cannot replay the audits at " + database.url() + " as " + database.user(), e);
        }
    }

    private AuditSelection selection() {
        boolean selector = !requestIds.isEmpty() || !verdicts.isEmpty() || since != null || until != null;
        if (selector == all) {
            throw new ParameterException(spec.commandLine(), all
                    ? "--all selects every audit: give it without --request-id, --verdict, --since or --until"
                    : "Select what to replay: at least one of --request-id, --verdict, --since, --until, or --all");
        }
        return new AuditSelection(requestIds, verdicts, since, until);
    }

    /** The policy from the options, converted exactly as the service converts {@code claimguard.policy}. */
    private Policy policy() {
        Policy policy;
        try {
            policy = Policy.of(policyName, policyVersion, ruleCaps, findingCaps);
        } catch (IllegalArgumentException wrong) {
            throw new ParameterException(spec.commandLine(), wrong.getMessage());
        }
        if (policy.id().equals(Policy.CONTRACT.id()) && !policy.equals(Policy.CONTRACT)) {
            // audit rows name policies by id: a different default@1 would make their record a lie
            throw new ParameterException(spec.commandLine(), Policy.CONTRACT.id()
                    + " is the contract's policy, without caps: give a policy with caps its own --policy-name and --policy-version");
        }
        return policy;
    }
}
