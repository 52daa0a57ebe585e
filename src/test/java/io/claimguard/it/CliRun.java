package io.claimguard.it;

import io.claimguard.cli.ClaimGuardCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;

/**
 * What one run of {@code claimguard <command>} printed and returned, run in the test's JVM against the test's broker
 * and database.
 */
record CliRun(int exitCode, List<String> out, String err) {

    /** Runs the command with the test service's broker, input queue and database added to the arguments. */
    static CliRun against(String command, String... arguments) {
        String[] args = Stream.concat(Stream.of(command, "--broker", "tcp://127.0.0.1:" + ServiceTestSupport.BROKER_PORT,
                        "--queue", ServiceTestSupport.INPUT_QUEUE, "--db-url", ServiceTestSupport.DATABASE.jdbcUrl(),
                        "--db-user", ServiceTestSupport.DATABASE.username(),
                        "--db-password", ServiceTestSupport.DATABASE.password()),
                Stream.of(arguments)).toArray(String[]::new);
        return of(args);
    }

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = ClaimGuardCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exitCode, out.toString().lines().toList(), err.toString());
    }
}
