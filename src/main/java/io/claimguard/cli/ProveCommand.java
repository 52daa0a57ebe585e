package io.claimguard.cli;

import io.claimguard.archive.AuditArchive;
import io.claimguard.checkpoint.ArchivedSeals;
import io.claimguard.checkpoint.CheckpointLog.LoggedCheckpoint;
import io.claimguard.checkpoint.Receipt;
import io.claimguard.checkpoint.Receipts;
import io.claimguard.checkpoint.SignedCheckpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Writes a receipt: an audit row's inclusion proof, or a consistency proof between two checkpoints. */
@Command(name = "prove", mixinStandardHelpOptions = true,
        description = {
            "Write a receipt that can be checked with the public key alone (verify-receipt).",
            "--audit-id: the RFC 6962 inclusion proof of the row's seal in the tree of the newest checkpoint that covers it."
                + " --consistency-from: the consistency proof from the checkpoint of that tree size to the newest checkpoint."
                + " The checkpoint is first checked against the chain; a receipt is never made for a chain that no longer"
                + " matches it. With --archives an audit whose partition was archived and dropped (claimguard archive) is"
                + " proven from its archive, against the newest checkpoint that covers it (the archive's own, or a later one)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the receipt was written", "1:no such audit row or checkpoint, or the chain no longer matches the"
            + " checkpoint", "2:wrong arguments", "3:not possible yet (the row not sealed, or no checkpoint covering it"
            + " yet), or the database or checkpoints unreadable"})
final class ProveCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    private What what;

    static final class What {
        @Option(names = "--audit-id", paramLabel = "ID", description = "the audit row to prove")
        Long auditId;

        @Option(names = "--consistency-from", paramLabel = "TREE-SIZE",
                description = "the tree size of the older checkpoint (its third field)")
        Long oldSize;
    }

    @Mixin
    private CheckpointDirectories checkpointDirectories;

    @Option(names = "--out", paramLabel = "FILE", description = "write the receipt here instead of standard output")
    private Path out;

    @Option(names = "--archives", paramLabel = "DIR",
            description = "the archives of dropped partitions (claimguard archive --archive-dir): the tree's first leaves")
    private Path archives;

    @Mixin
    private DatabaseOptions database;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (!checkpointDirectories.given() && archives == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required option: '--checkpoints=DIR'");
        }
        List<SignedCheckpoint> checkpoints = checkpointDirectories.entries().stream().map(LoggedCheckpoint::checkpoint)
                .filter(Objects::nonNull).toList();
        ArchivedSeals archived = archived();
        Receipt receipt;
        try (Connection connection = database.connect()) {
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                receipt = what.auditId != null ? Receipts.proveInclusion(connection, what.auditId, checkpoints, archived)
                        : Receipts.proveConsistency(connection, what.oldSize, checkpoints);
            } finally {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new ToolFailure("cannot read the audit chain at " + database.url() + " as " + database.user(), e);
        } catch (Receipts.NotProvable e) {
            throw new ToolFailure(e.getMessage(), null, e.later() ? ExitCodes.UNAVAILABLE : ExitCodes.FINDINGS);
        }
        String json = Receipts.toJson(receipt);
        return written(json);
    }

    /** The archives, verified before they are proven from (no signature check here: verify-receipt checks it). */
    private ArchivedSeals archived() {
        if (archives == null) {
            return ArchivedSeals.NONE;
        }
        try {
            return AuditArchive.verifyAll(archives, null);
        } catch (AuditArchive.ArchiveBroken e) {
            throw new ToolFailure("the archives do not hold, no receipt made: " + e.getMessage(), null, ExitCodes.FINDINGS);
        } catch (IOException e) {
            throw new ToolFailure("cannot read the archives in " + archives, e);
        }
    }

    private int written(String json) {
        if (out == null) {
            spec.commandLine().getOut().print(json);
            spec.commandLine().getOut().flush();
        } else {
            try {
                Files.writeString(out, json, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ToolFailure("cannot write the receipt to " + out, e);
            }
            spec.commandLine().getOut().println("receipt written to " + out);
        }
        return ExitCodes.OK;
    }
}
