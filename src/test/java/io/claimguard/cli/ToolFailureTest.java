package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolFailureTest {

    @Test
    @DisplayName("A failure reads as one line: each cause's first line once, no class names")
    void oneLine() {
        SQLException refused = new SQLException("Connection to 127.0.0.1:1 refused.\nCheck the host", "08001");
        ToolFailure failure = new ToolFailure("cannot reach the audit database at jdbc:postgresql://127.0.0.1:1/x as a",
                refused);

        assertThat(ToolFailure.describe(failure)).isEqualTo(
                "cannot reach the audit database at jdbc:postgresql://127.0.0.1:1/x as a: Connection to 127.0.0.1:1 refused.");
    }

    @Test
    @DisplayName("A database without the audit tables is named as such")
    void missingTables() {
        SQLException missing = new SQLException("ERROR: relation \"claimguard.verification_audit\" does not exist\n  Position: 15",
                "42P01");

        assertThat(ToolFailure.describe(missing))
                .startsWith("ERROR: relation \"claimguard.verification_audit\" does not exist (the database has no ClaimGuard tables")
                .contains("has the service started on it once?")
                .doesNotContain("Position");
    }

    @Test
    @DisplayName("A cause chain that loops back reads each cause once and ends")
    void causeChainThatLoops() {
        SQLException outer = new SQLException("outer", "42P01");
        IllegalStateException inner = new IllegalStateException("inner", outer);
        outer.initCause(inner);

        assertThat(ToolFailure.describe(outer)).startsWith("outer: inner (the database has no ClaimGuard tables");
        assertThat(BrokerOptions.refused(outer)).isFalse();
    }

    @TempDir
    Path work;

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = ClaimGuardCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exitCode, out.toString(), err.toString());
    }

    @Test
    @DisplayName("Scenario: A tool that cannot write or read a file names the cause")
    void keygenIntoAFolderThatDoesNotExistNamesTheFolder() {
        Path key = work.resolve("etc/claimguard/checkpoint.key");

        Run missing = run("keygen", "--out", key.toString());

        assertThat(missing.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(missing.err()).isEqualTo("claimguard keygen: cannot write " + key + ": the folder " + work.resolve("etc")
                + " does not exist\n");
    }

    @Test
    @DisplayName("keygen names a file that exists, and a folder it may not write with the user")
    void keygenNamesAFileThatExistsAndAFolderItMayNotWrite() throws IOException {
        Path key = work.resolve("checkpoint.key");
        assertThat(run("keygen", "--out", key.toString()).exitCode()).isZero();

        assertThat(run("keygen", "--out", key.toString()).err())
                .isEqualTo("claimguard keygen: cannot write " + key + ": " + key + " exists already, and is never overwritten\n");

        Path locked = Files.createDirectory(work.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
        try {
            if (!Files.isWritable(locked)) { // root may write anywhere
                assertThat(run("keygen", "--out", locked.resolve("checkpoint.key").toString()).err())
                        .startsWith("claimguard keygen: cannot write " + locked.resolve("checkpoint.key")
                                + ": permission denied on " + locked + "/.checkpoint.key.")
                        .endsWith(" (running as " + System.getProperty("user.name") + ")\n");
            }
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    @DisplayName("verify-receipt names why the receipt or the public key cannot be read")
    void verifyReceiptNamesWhyTheReceiptCannotBeRead() {
        Path key = work.resolve("checkpoint.key");
        assertThat(run("keygen", "--out", key.toString()).exitCode()).isZero();
        Path receipt = work.resolve("receipt-2.json");

        Run missing = run("verify-receipt", receipt.toString(), "--public-key", key + ".pub");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(missing.err()).isEqualTo("claimguard verify-receipt: cannot read the receipt " + receipt + ": " + receipt
                + " does not exist\n");

        assertThat(run("verify-receipt", work.toString(), "--public-key", key + ".pub").err())
                .startsWith("claimguard verify-receipt: cannot read the receipt " + work + ": ").contains("Is a directory");

        assertThat(run("verify-receipt", receipt.toString(), "--public-key", work.resolve("nowhere/k.pub").toString()).err())
                .startsWith("claimguard verify-receipt: key file " + work.resolve("nowhere/k.pub") + " cannot be read: the folder "
                        + work.resolve("nowhere") + " does not exist\n");
    }
}
