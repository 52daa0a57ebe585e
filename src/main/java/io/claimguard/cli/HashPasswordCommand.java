package io.claimguard.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Makes the password hash of an audit explorer operator ({@code claimguard.explorer.users[n].password}): bcrypt, with
 * the encoder id Spring's {@code DelegatingPasswordEncoder} reads. The password is asked for twice without echo on a
 * terminal, or read as the first line of standard input otherwise; it is never an argument (arguments show in the
 * process list and the shell's history).
 */
@Command(name = "hash-password", mixinStandardHelpOptions = true,
        description = {
            "Make an audit explorer operator's password hash ({bcrypt}...).",
            "Asks for the password twice on a terminal, or reads the first line of standard input; prints the hash for "
                + "claimguard.explorer.users[n].password (CLAIMGUARD_EXPLORER_USERS_0_PASSWORD)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the hash is printed", "2:no password, or the two did not match"})
final class HashPasswordCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        char[] password = readPassword();
        try {
            if (password.length == 0) {
                throw new ParameterException(spec.commandLine(), "the password is empty");
            }
            String hash = PasswordEncoderFactories.createDelegatingPasswordEncoder().encode(new String(password));
            spec.commandLine().getOut().println(hash);
            return ExitCodes.OK;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private char[] readPassword() throws IOException {
        Console console = System.console();
        if (console != null) {
            char[] first = console.readPassword("Password: ");
            char[] second = console.readPassword("Again: ");
            if (first == null || second == null || !Arrays.equals(first, second)) {
                throw new ParameterException(spec.commandLine(), "the two passwords differ");
            }
            Arrays.fill(second, '\0');
            return first;
        }
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        return line == null ? new char[0] : line.toCharArray();
    }
}
