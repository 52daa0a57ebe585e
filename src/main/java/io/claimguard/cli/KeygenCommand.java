package io.claimguard.cli;

import io.claimguard.checkpoint.Ed25519Keys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Makes the Ed25519 key pair that signs checkpoints. */
@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = {
            "Make an Ed25519 key pair for signed checkpoints.",
            "Writes the signing key (private and public key, readable by its owner only) to FILE and the public key alone"
                + " to FILE.pub. Give the service FILE (claimguard.checkpoint.private-key); give auditors FILE.pub"
                + " (verify-chain --public-key). Existing files are never overwritten."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:both files written", "2:wrong arguments", "3:a file exists already or cannot be written"})
final class KeygenCommand implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the signing key file to write")
    private Path out;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        Path publicFile = out.resolveSibling(out.getFileName() + ".pub");
        KeyPair pair = Ed25519Keys.generate();
        write(out, Ed25519Keys.signingKeyPem(pair), true);
        write(publicFile, Ed25519Keys.publicKeyPem(pair.getPublic()), false);
        spec.commandLine().getOut().printf("signing key: %s (set claimguard.checkpoint.private-key to it; keep it secret)%n"
                + "public key:  %s (give it to auditors: verify-chain --public-key)%n", out, publicFile);
        return ExitCodes.OK;
    }

    private static void write(Path file, String text, boolean secret) {
        try {
            if (Files.exists(file)) {
                throw new FileAlreadyExistsException(file.toString(), null, "exists already, and is never overwritten");
            }
            if (secret && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new ToolFailure("cannot write " + file, e);
        }
    }
}
