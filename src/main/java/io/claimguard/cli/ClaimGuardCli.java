package io.claimguard.cli;

import io.claimguard.ClaimGuardApplication;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The jar's entry point: {@code java -jar claimguard.jar [command] ...}. Without a command, or with Spring Boot
 * options only ({@code --name=value}), it runs the service; every other command is a tool that parses its arguments
 * with picocli and runs without a Spring application context, so that no web server, route or migration starts and it
 * answers in about a second.
 */
@Command(name = "claimguard", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = {
            "Guards verifier verdicts, projects the legacy facts list, audits every verification to PostgreSQL.",
            "Without a command, or with --name=value options only, it runs the service (see 'claimguard serve --help')."},
        subcommands = {ServeCommand.class, SendCommand.class, BrowseCommand.class, ConsumeCommand.class,
            StatusCommand.class, VerifyChainCommand.class, KeygenCommand.class, ProveCommand.class,
            VerifyReceiptCommand.class, VerifyResultCommand.class, RedriveCommand.class, ReplayCommand.class, HashPasswordCommand.class,
            ArchiveCommand.class,
            CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            ExitCodes.OK + ":done; for verify-chain and status: all is well",
            ExitCodes.FINDINGS + ":done, and something is wrong (a broken chain, an input rejected or dead-lettered again)",
            ExitCodes.USAGE + ":wrong arguments (the message says which, and where the help is)",
            ExitCodes.UNAVAILABLE + ":could not be done (the database or broker unreachable, the broker refusing the login or"
                + " the operation, a file unreadable, inputs"
                + " still pending after --timeout)"})
public final class ClaimGuardCli implements Runnable {

    /** Options that are the command line's own, never Spring Boot's. */
    private static final Set<String> OWN_OPTIONS = Set.of("-h", "--help", "-V", "--version");

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        if (ServeCommand.isServe(args)) {
            ServeCommand.exitWithSuccessOnSigterm();
            ClaimGuardApplication.main(ServeCommand.serviceArguments(args));
            return;
        }
        // JSON lines are UTF-8 whatever the locale, so that what browse and consume print is the bytes sent
        System.exit(execute(args, new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(System.err, true)));
    }

    /** Runs a tool command; returns its exit status. The service itself is started by {@link #main} only. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new ClaimGuardCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler(new FailureReport());
        commandLine.setParameterExceptionHandler(ClaimGuardCli::reportUsageError);
        commandLine.setUsageHelpAutoWidth(true);
        return commandLine.execute(args);
    }

    /** True when the first argument is one of the command line's own options (and the service must not start). */
    static boolean isOwnOption(String argument) {
        return OWN_OPTIONS.contains(argument);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** A usage error: what is wrong, a suggestion for a mistyped name, and where the help is; not the whole help. */
    private static int reportUsageError(CommandLine.ParameterException problem, String[] args) {
        CommandLine commandLine = problem.getCommandLine();
        PrintWriter err = commandLine.getErr();
        String command = commandLine.getCommandSpec().qualifiedName();
        err.println(command + ": " + problem.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(problem, err);
        err.println("Try '" + command + " --help' for more information.");
        return commandLine.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Prints a command's failure as one line a person can act on, without a stack trace. */
    private static final class FailureReport implements CommandLine.IExecutionExceptionHandler {

        @Override
        public int handleExecutionException(Exception failure, CommandLine commandLine, CommandLine.ParseResult parsed) {
            commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + ToolFailure.describe(failure));
            return failure instanceof ToolFailure known ? known.exitCode() : ExitCodes.UNAVAILABLE;
        }
    }

    static String[] tail(String[] args) {
        return Arrays.copyOfRange(args, 1, args.length);
    }
}
