package io.claimguard.cli;

import io.claimguard.archive.AuditArchive;
import io.claimguard.checkpoint.Checkpoint;
import io.claimguard.checkpoint.CheckpointLog.LoggedCheckpoint;
import io.claimguard.checkpoint.CheckpointReport;
import io.claimguard.checkpoint.CheckpointVerifier;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import io.claimguard.seal.ChainVerification;
import java.io.IOException;
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
            "With --checkpoints and --public-key it checks every checkpoint's signature and verifies incrementally: only the seals after the head of the checkpoint before the newest, which must still have its signed hash, and that the newest checkpoint extends it. With --full as well it recomputes the whole chain and checks that it still contains every checkpoint (seals removed from the end, or a chain rewritten and re-hashed, are named by checkpoint and seal seq).",
            "With --archives it first verifies the archives claimguard archive wrote (every seal's hash recomputed from the archived rows, each archive continuing the one before, each archive's checkpoint root, and its signature with --public-key), then the live chain from the last archived seal on.",
            "Each run is recorded in claimguard.chain_verification when the login may (claimguard status reports the newest)."},
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

    @Option(names = "--full", description = "with --checkpoints: recompute the whole chain from its first seal and every"
            + " checkpoint's Merkle root (streamed, in constant memory), not only the seals after the trusted checkpoint")
    private boolean full;

    @Option(names = "--archives", paramLabel = "DIR",
            description = "the archives of dropped partitions (claimguard archive --archive-dir): verified first, the live"
                + " chain then from the last archived seal")
    private Path archives;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (archives != null && full) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--full and --archives: the archives are verified in full against their own checkpoints; leave out --full");
        }
        if (checkpointDirectories.given() && publicKeyFile == null
                || publicKeyFile != null && !checkpointDirectories.given() && archives == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--checkpoints and --public-key go together: the checkpoints are checked with the public key");
        }
        PublicKey publicKey = publicKeyFile == null ? null : publicKey();
        List<LoggedCheckpoint> checkpoints = checkpointDirectories.entries();
        PrintWriter out = spec.commandLine().getOut();
        ChainReport chain;
        CheckpointReport checked = null;
        AuditArchive.Verified archived = verifiedArchives(publicKey, out);
        if (archived == null) {
            return ExitCodes.FINDINGS;
        }
        try (Connection connection = database.connect()) {
            Checkpoint trusted = publicKey == null || full ? null : CheckpointVerifier.trustedStart(checkpoints, publicKey);
            if (archived.size() > 0 && (trusted == null || trusted.headSeq() <= archived.lastSeq())) {
                // the log's checkpoints up to the last archived seal are vouched for by the archives' own
                trusted = null;
                chain = AuditChainVerifier.verifyAfterArchive(connection, database::connect, archived.lastSeq(),
                        archived.lastHash(), "the archives in " + archives);
            } else if (trusted != null) {
                chain = AuditChainVerifier.verifyAfter(connection, database::connect, trusted.headSeq(),
                        trusted.headHash(), "the signed checkpoint " + trusted.describe());
                checked = CheckpointVerifier.verifyNewest(connection, checkpoints, publicKey);
            } else {
                chain = AuditChainVerifier.verify(connection, database::connect);
                if (publicKey != null) {
                    checked = CheckpointVerifier.verify(connection, checkpoints, publicKey);
                }
            }
            String checkpointProblem = checked == null || checked.intact() ? null : checked.problems().get(0);
            record(connection, trusted == null ? ChainVerification.of(chain, checkpointProblem, null, null, null)
                    : ChainVerification.of(chain, checkpointProblem, trusted.headSeq(), trusted.treeSize(),
                            trusted.headSeq()));
        } catch (SQLException e) {
            throw new ToolFailure("cannot check the audit chain at " + database.url() + " as " + database.user(), e);
        }
        chain.lines().forEach(out::println);
        if (checked != null) {
            checked.lines().forEach(out::println);
        }
        return chain.intact() && (checked == null || checked.intact()) ? ExitCodes.OK : ExitCodes.FINDINGS;
    }

    /** Keeps the outcome for status; a login that may only read (claimguard_reader) verifies all the same. */
    private void record(Connection connection, ChainVerification verification) {
        try {
            verification.record(connection);
        } catch (SQLException e) {
            spec.commandLine().getErr().println("verify-chain: the outcome was not recorded in claimguard.chain_verification"
                    + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** The archives verified, oldest first (none without --archives); null, having said why, when one does not hold. */
    private AuditArchive.Verified verifiedArchives(PublicKey publicKey, PrintWriter out) {
        if (archives == null) {
            return AuditArchive.Verified.none();
        }
        try {
            AuditArchive.Verified verified = AuditArchive.verifyAll(archives, publicKey);
            out.printf("archives: %d archived seals verified through seal seq %d, %d archive checkpoint(s) %s%n",
                    verified.size(), verified.lastSeq(), verified.checkpoints().size(),
                    publicKey == null ? "matching (signatures not checked: no --public-key)" : "matching and signed");
            return verified;
        } catch (AuditArchive.ArchiveBroken e) {
            out.println("archives: BROKEN: " + e.getMessage());
            return null;
        } catch (IOException e) {
            throw new ToolFailure("cannot read the archives in " + archives, e);
        }
    }

    private PublicKey publicKey() {
        try {
            return Ed25519Keys.readPublicKey(publicKeyFile);
        } catch (Ed25519Keys.KeyFileException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
