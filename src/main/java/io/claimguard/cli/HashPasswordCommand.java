package io.claimguard.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
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
                + "claimguard.explorer.users[n].password (CLAIMGUARD_EXPLORER_USERS_0_PASSWORD).",
            "The password must have at least " + HashPasswordCommand.MIN_LENGTH + " characters (and at most "
                + HashPasswordCommand.MAX_BYTES + " bytes)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the hash is printed",
            "2:no password, one shorter than " + HashPasswordCommand.MIN_LENGTH + " characters or longer than "
                + HashPasswordCommand.MAX_BYTES + " bytes, or the two did not match"})
final class HashPasswordCommand implements Callable<Integer> {

    /** The shortest password hashed: long enough that guessing it through the login throttle stays hopeless. */
    static final int MIN_LENGTH = 12;
    /** bcrypt reads no more than 72 bytes; Spring's encoder refuses a longer password. */
    static final int MAX_BYTES = 72;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        char[] password = readPassword();
        try {
            if (password.length == 0) {
                throw new ParameterException(spec.commandLine(), "the password is empty");
            }
            int length = Character.codePointCount(password, 0, password.length);
            if (length < MIN_LENGTH) {
                throw new ParameterException(spec.commandLine(), "the password is too short: " + length
                        + " characters, at least " + MIN_LENGTH);
            }
            if (utf8Length(password) > MAX_BYTES) {
                throw new ParameterException(spec.commandLine(), "the password is too long: more than " + MAX_BYTES
                        + " bytes in UTF-8, which is all bcrypt reads");
            }
            String hash = PasswordEncoderFactories.createDelegatingPasswordEncoder().encode(new String(password));
            spec.commandLine().getOut().println(hash);
            return ExitCodes.OK;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    /** The password's length in UTF-8, without leaving its bytes behind. */
    private static int utf8Length(char[] password) {
        ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        int length = bytes.remaining();
        Arrays.fill(bytes.array(), (byte) 0);
        return length;
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
