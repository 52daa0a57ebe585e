package io.claimguard.cli;

import io.claimguard.checkpoint.Ed25519Keys;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Makes an Ed25519 key pair: for signed checkpoints, or for signed results. */
@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = {
            "Make an Ed25519 key pair, for signed checkpoints or for signed results.",
            "Writes the signing key (private and public key, readable by its owner only) to FILE and the public key alone"
                + " to FILE.pub. Give the service FILE (claimguard.checkpoint.private-key, or"
                + " claimguard.result-signing.private-key); give FILE.pub to auditors (verify-chain --public-key) or to the"
                + " consumers of results (verify-result --public-key). Existing files are never overwritten."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:both files written", "2:wrong arguments", "3:a file exists already or cannot be written"})
final class KeygenCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the signing key file to write")
    private Path out;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        Path publicFile = Ed25519Keys.publicKeyFile(out);
        for (Path file : new Path[] {out, publicFile}) {
            if (Files.exists(file)) {
                throw new ToolFailure("cannot write " + file, new FileAlreadyExistsException(file.toString(), null,
                        "exists already, and is never overwritten"));
            }
        }
        try {
            Ed25519Keys.writeKeyFiles(out, Ed25519Keys.generate());
        } catch (IOException e) {
            throw new ToolFailure("cannot write " + out, e);
        }
        spec.commandLine().getOut().printf("signing key: %s (set claimguard.checkpoint.private-key or"
                + " claimguard.result-signing.private-key to it; keep it secret)%n"
                + "public key:  %s (give it to auditors or to the consumers of results)%n", out, publicFile);
        return ExitCodes.OK;
    }
}
