package io.claimguard.cli;

import io.claimguard.audit.Sha256;
import io.claimguard.broker.BrokerRole;
import io.claimguard.cli.DeadLetterSelection.Selected;
import io.claimguard.cli.OutcomeWatcher.Audited;
import io.claimguard.cli.OutcomeWatcher.DeadLettered;
import io.claimguard.cli.OutcomeWatcher.Outcome;
import io.claimguard.cli.OutcomeWatcher.Pending;
import io.claimguard.cli.OutcomeWatcher.Sent;
import io.claimguard.pipeline.Redrive;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
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
 * Sends dead-lettered inputs through the service again, from the bytes kept in {@code claimguard.dead_letter}, once
 * their cause is fixed. The dead-letter rows are never changed: each re-drive is a new input whose rows name the dead
 * letter it came from.
 */
@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = {
            "Process dead-lettered inputs again, after their cause is fixed.",
            "Sends each selected dead letter's bytes, as kept in claimguard.dead_letter, to the input queue as a BytesMessage with the JMS property " + Redrive.PROPERTY + " = its id, then waits for what became of it. An input audited now records the dead letter in verification_audit.redrive_of; one still invalid is dead-lettered again as a new row with its reason and redrive_of. The dead-letter rows themselves are never changed.",
            "Every kind of selector given narrows the selection; repeat --id or --reason for several. Dead letters re-driven before (audited, or dead-lettered again: re-drive the newer row) are skipped unless --again.",
            "A dead letter whose row keeps only the first bytes of a huge input (payload_truncated) is never re-driven from it: the command says where the whole input is (the inbox's .error/ folder, the dead-letter queue or topic)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every re-driven input audited (or nothing to re-drive, or --dry-run)",
            "1:an input was dead-lettered again (its new dead letter and reason are printed), or a selected dead letter keeps only part of its input",
            "2:wrong arguments (no selector, a bad instant)",
            "3:the database or broker unreachable, the broker refusing the operator's login, or inputs still pending at the timeout"},
        footer = {"", "Examples:", "  claimguard redrive --dry-run --reason processing_failed",
            "  claimguard redrive --reason not_json --since 2026-12-03T21:00:00Z", "  claimguard redrive --id 41 --id 42"})
final class RedriveCommand implements Callable<Integer> {

    private static final HexFormat HEX = HexFormat.of();

    @Option(names = "--id", paramLabel = "ID", description = "a dead_letter id (repeatable)")
    private List<Long> ids = new ArrayList<>();

    @Option(names = "--reason", paramLabel = "CODE",
            description = "a reason code, e.g. processing_failed, not_json (repeatable)")
    private List<String> reasonCodes = new ArrayList<>();

    @Option(names = "--since", paramLabel = "INSTANT",
            description = "dead letters received at or after this instant (ISO-8601, e.g. 2026-12-03T21:00:00Z)")
    private Instant since;

    @Option(names = "--until", paramLabel = "INSTANT", description = "dead letters received before this instant")
    private Instant until;

    @Option(names = "--dry-run", description = "list what would be re-driven; send nothing (no broker needed)")
    private boolean dryRun;

    @Option(names = "--again", description = "re-drive also dead letters re-driven before")
    private boolean again;

    @Mixin
    private InputQueueOptions input;

    @Mixin
    private BrokerOptions broker;

    @Mixin
    private DatabaseOptions database;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws SQLException {
        if (ids.isEmpty() && reasonCodes.isEmpty() && since == null && until == null) {
            throw new ParameterException(spec.commandLine(),
                    "Select what to re-drive: at least one of --id, --reason, --since, --until");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Connection connection = database.connect()) {
            List<Selected> selected = new DeadLetterSelection(ids, reasonCodes, since, until).read(connection);
            if (selected.isEmpty()) {
                out.println("nothing to re-drive: no dead letter matches the selection");
                return ExitCodes.OK;
            }
            List<Selected> chosen = new ArrayList<>();
            boolean notWhole = false;
            for (Selected deadLetter : selected) {
                String earlier = deadLetter.earlierRedrive();
                if (deadLetter.notWhole() != null) {
                    out.println(deadLetter.label() + " -> " + (dryRun ? "would not be re-driven: " : "not re-driven: ")
                            + deadLetter.notWhole());
                    notWhole = true;
                } else if (earlier != null && !again) {
                    out.println(deadLetter.label() + " -> skipped: " + earlier + "; --again re-drives it anyway");
                } else {
                    chosen.add(deadLetter);
                }
            }
            if (dryRun) {
                chosen.forEach(deadLetter -> out.println(deadLetter.label() + " -> would be re-driven: "
                        + deadLetter.reasonCode() + ", received " + deadLetter.receivedAt().toInstant().truncatedTo(ChronoUnit.SECONDS)
                        + ", " + deadLetter.payload().length + " bytes"));
                return ExitCodes.OK;
            }
            int exitCode = chosen.isEmpty() ? ExitCodes.OK : redrive(connection, chosen, out);
            return notWhole && exitCode == ExitCodes.OK ? ExitCodes.FINDINGS : exitCode;
        }
    }

    private int redrive(Connection connection, List<Selected> chosen, PrintWriter out) throws SQLException {
        OutcomeWatcher watcher = new OutcomeWatcher(connection);
        List<byte[]> sha256s = chosen.stream().map(deadLetter -> Sha256.of(deadLetter.payload())).toList();
        Map<String, Audited> auditedBefore = watcher.auditedBefore(sha256s);
        List<Sent> sent = new ArrayList<>();
        try (InputSender sender = new InputSender(broker, BrokerRole.OPERATOR, input.queue())) {
            for (int i = 0; i < chosen.size(); i++) {
                sent.add(new Sent(sha256s.get(i), sender.redrive(chosen.get(i).payload(), chosen.get(i).id()),
                        auditedBefore.get(HEX.formatHex(sha256s.get(i)))));
            }
        }
        List<Outcome> outcomes = watcher.await(sent, input.timeout());
        List<String> labels = chosen.stream().map(Selected::label).toList();
        for (int i = 0; i < outcomes.size(); i++) {
            out.println(labels.get(i) + " -> " + describe(outcomes.get(i)));
        }
        String pending = OutcomeWatcher.pendingSummary(labels, outcomes, input.timeout());
        if (pending != null) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + pending);
        }
        return OutcomeWatcher.exitCode(outcomes);
    }

    private static String describe(Outcome outcome) {
        if (outcome instanceof Audited audited) {
            return audited.before() ? audited.duplicate() : "audited as audit_id " + audited.auditId() + ": " + audited.verdict();
        }
        if (outcome instanceof DeadLettered deadLettered) {
            return "dead-lettered again as dead_letter " + deadLettered.deadLetterId() + ": " + deadLettered.why();
        }
        return ((Pending) outcome).describe();
    }
}
