package io.claimguard.cli;

import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Checks the audit hash chain and names the first row that was altered or removed. */
@Command(name = "verify-chain", mixinStandardHelpOptions = true,
        description = {
            "Check the audit hash chain; name the first altered or removed row.",
            "Recomputes the hash chain of claimguard.audit_seal from the audit rows as they are now and names the first seal or row that was altered or removed. Any login that can read schema claimguard will do."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the chain is intact", "1:the chain is broken (the first broken link is named)",
            "2:wrong arguments", "3:the chain could not be checked (the database unreachable)"})
final class VerifyChainCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions database;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        ChainReport report;
        try (Connection connection = database.connect()) {
            report = AuditChainVerifier.verify(connection);
        } catch (SQLException e) {
            throw new ToolFailure("cannot check the audit chain at " + database.url() + " as " + database.user(), e);
        }
        report.lines().forEach(spec.commandLine().getOut()::println);
        return report.intact() ? ExitCodes.OK : ExitCodes.FINDINGS;
    }
}
