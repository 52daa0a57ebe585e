package io.claimguard.cli;

import io.claimguard.checkpoint.CheckpointLog.LoggedCheckpoint;
import io.claimguard.checkpoint.CheckpointReport;
import io.claimguard.checkpoint.CheckpointVerifier;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.PublicKey;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Checks the audit hash chain and names the first row that was altered or removed. */
@Command(name = "verify-chain", mixinStandardHelpOptions = true,
        description = {
            "Check the audit hash chain; name the first altered or removed row.",
            "Recomputes the hash chain of claimguard.audit_seal from the audit rows as they are now and names the first seal or row that was altered or removed. Any login that can read schema claimguard will do.",
            "With --checkpoints and --public-key it also checks every signed checkpoint in the directories and that the chain still contains each one: seals removed from the end, or a chain rewritten and re-hashed, are named by checkpoint and seal seq."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the chain is intact (and every checkpoint holds)",
            "1:the chain is broken (the first broken link is named), or a checkpoint does not hold (each is named)",
            "2:wrong arguments", "3:the chain could not be checked (the database unreachable)"})
final class VerifyChainCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions database;

    @Mixin
    private CheckpointDirectories checkpointDirectories;

    @Option(names = "--public-key", paramLabel = "FILE", description = "the public key the checkpoints are signed with")
    private Path publicKeyFile;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (checkpointDirectories.given() != (publicKeyFile != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--checkpoints and --public-key go together: the checkpoints are checked with the public key");
        }
        PublicKey publicKey = publicKeyFile == null ? null : publicKey();
        List<LoggedCheckpoint> checkpoints = checkpointDirectories.entries();
        PrintWriter out = spec.commandLine().getOut();
        ChainReport chain;
        CheckpointReport checked = null;
        try (Connection connection = database.connect()) {
            chain = AuditChainVerifier.verify(connection);
            if (publicKey != null) {
                checked = CheckpointVerifier.verify(connection, checkpoints, publicKey);
            }
        } catch (SQLException e) {
            throw new ToolFailure("cannot check the audit chain at " + database.url() + " as " + database.user(), e);
        }
        chain.lines().forEach(out::println);
        if (checked != null) {
            checked.lines().forEach(out::println);
        }
        return chain.intact() && (checked == null || checked.intact()) ? ExitCodes.OK : ExitCodes.FINDINGS;
    }

    private PublicKey publicKey() {
        try {
            return Ed25519Keys.readPublicKey(publicKeyFile);
        } catch (Ed25519Keys.KeyFileException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
