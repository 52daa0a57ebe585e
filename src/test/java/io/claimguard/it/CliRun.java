package io.claimguard.it;

import io.claimguard.cli.ClaimGuardCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

/** One run of {@code claimguard <command>} in the test's JVM: its exit code and what it printed, line by line. */
record CliRun(int exitCode, List<String> lines, String err) {

    /**
     * Runs the command with the test service's broker (and the credentials file of its logins), input queue and database
     * added to the arguments.
     */
    static CliRun against(String command, String... arguments) {
        String[] args = Stream.concat(Stream.of(command, "--broker", "tcp://127.0.0.1:" + ServiceTestSupport.BROKER_PORT,
                        "--broker-credentials", ServiceTestSupport.BROKER_CREDENTIALS.toString(),
                        "--queue", ServiceTestSupport.INPUT_QUEUE, "--db-url", ServiceTestSupport.DATABASE.jdbcUrl(),
                        "--db-user", ServiceTestSupport.DATABASE.username(),
                        "--db-password", ServiceTestSupport.DATABASE.password()),
                Stream.of(arguments)).toArray(String[]::new);
        return of(args);
    }

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = ClaimGuardCli.execute(args, new PrintWriter(out, true, StandardCharsets.UTF_8),
                new PrintWriter(err, true, StandardCharsets.UTF_8));
        return new CliRun(exitCode, out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString(StandardCharsets.UTF_8));
    }

    /** Standard output as one text. */
    String out() {
        return String.join("\n", lines);
    }
}
