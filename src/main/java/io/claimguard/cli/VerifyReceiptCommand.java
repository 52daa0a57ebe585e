package io.claimguard.cli;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.checkpoint.Receipts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Checks a receipt with the public key alone, without the database. */
@Command(name = "verify-receipt", mixinStandardHelpOptions = true,
        description = {
            "Check a receipt from 'prove' with the public key alone; no database needed.",
            "An inclusion receipt holds when its checkpoint is signed by the key and its proof leads from the seal's hash to"
                + " the checkpoint's root; a consistency receipt when both checkpoints are signed and the newer tree extends"
                + " the older one unchanged."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the receipt holds", "1:the receipt does not hold (why is named)", "2:wrong arguments",
            "3:the receipt file cannot be read"})
final class VerifyReceiptCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RECEIPT", description = "the receipt file")
    private Path receiptFile;

    @Option(names = "--public-key", required = true, paramLabel = "FILE",
            description = "the public key the checkpoints are signed with")
    private Path publicKeyFile;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PublicKey publicKey;
        try {
            publicKey = Ed25519Keys.readPublicKey(publicKeyFile);
        } catch (Ed25519Keys.KeyFileException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        String text;
        try {
            text = Files.readString(receiptFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ToolFailure("cannot read the receipt " + receiptFile, e);
        }
        try {
            String proven = Receipts.verify(Receipts.fromJson(text), publicKey);
            spec.commandLine().getOut().println("receipt holds: " + proven);
            return ExitCodes.OK;
        } catch (Receipts.ReceiptBroken e) {
            spec.commandLine().getOut().println("receipt does not hold: " + e.getMessage());
            return ExitCodes.FINDINGS;
        }
    }
}
