package io.claimguard.cli;

import io.claimguard.audit.Sha256;
import io.claimguard.broker.BrokerRole;
import io.claimguard.cli.OutcomeWatcher.Audited;
import io.claimguard.cli.OutcomeWatcher.DeadLettered;
import io.claimguard.cli.OutcomeWatcher.Outcome;
import io.claimguard.cli.OutcomeWatcher.Pending;
import io.claimguard.cli.OutcomeWatcher.Sent;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Sends envelope files to the input queue and reports what became of each: audited, a duplicate, or rejected. */
@Command(name = "send", mixinStandardHelpOptions = true,
        description = {
            "Send files to the input queue, one JMS message each, and say what became of each.",
            "Each file is sent as a TextMessage (its bytes as UTF-8 text) or, with --bytes, as a BytesMessage. Then the command waits until the service has audited or dead-lettered every input, watching the audit database: it prints the audit id and verdict, the reason of a rejection, or that byte-identical bytes were audited before the send (no new row: ClaimGuard audits each input once and forwards its result again)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every input audited (duplicates included), or sent with --no-wait",
            "1:an input was rejected (dead-lettered; the reason is printed)", "2:wrong arguments",
            "3:the broker or database unreachable, the broker refusing the producer's login, a file unreadable, or inputs"
                + " still pending at the timeout"},
        footer = {"", "Example: claimguard send examples/*.json"})
final class SendCommand implements Callable<Integer> {

    private static final HexFormat HEX = HexFormat.of();

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "envelope files, each sent as it is")
    private List<Path> files;

    @Option(names = "--bytes", description = "send BytesMessages instead of TextMessages")
    private boolean asBytes;

    @Option(names = "--no-wait", description = "only send: no waiting, no database needed")
    private boolean noWait;

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
        List<byte[]> contents = new ArrayList<>();
        for (Path file : files) {
            contents.add(read(file));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (noWait) {
            try (InputSender sender = new InputSender(broker, BrokerRole.PRODUCER, input.queue())) {
                for (int i = 0; i < files.size(); i++) {
                    out.println(files.get(i) + " -> sent to " + input.queue() + " as " + sender.send(contents.get(i), asBytes));
                }
            }
            return ExitCodes.OK;
        }
        List<byte[]> sha256s = contents.stream().map(Sha256::of).toList();
        try (Connection connection = database.connect()) {
            OutcomeWatcher watcher = new OutcomeWatcher(connection);
            Map<String, Audited> auditedBefore = watcher.auditedBefore(sha256s);
            List<Sent> sent = new ArrayList<>();
            try (InputSender sender = new InputSender(broker, BrokerRole.PRODUCER, input.queue())) {
                for (int i = 0; i < files.size(); i++) {
                    sent.add(new Sent(sha256s.get(i), sender.send(contents.get(i), asBytes),
                            auditedBefore.get(HEX.formatHex(sha256s.get(i)))));
                }
            }
            List<Outcome> outcomes = watcher.await(sent, input.timeout());
            List<String> labels = files.stream().map(Path::toString).toList();
            for (int i = 0; i < outcomes.size(); i++) {
                out.println(labels.get(i) + " -> " + describe(outcomes.get(i)));
            }
            String pending = OutcomeWatcher.pendingSummary(labels, outcomes, input.timeout());
            if (pending != null) {
                spec.commandLine().getErr().println(spec.qualifiedName() + ": " + pending);
            }
            return OutcomeWatcher.exitCode(outcomes);
        }
    }

    private static String describe(Outcome outcome) {
        if (outcome instanceof Audited audited) {
            return audited.before() ? audited.duplicate() : "audit_id " + audited.auditId() + ": " + audited.verdict();
        }
        if (outcome instanceof DeadLettered deadLettered) {
            return "rejected: " + deadLettered.why() + " (dead_letter " + deadLettered.deadLetterId() + ")";
        }
        return ((Pending) outcome).describe();
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ToolFailure("cannot read " + file, e);
        }
    }
}
