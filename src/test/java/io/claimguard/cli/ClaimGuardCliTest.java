package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ClaimGuardCliTest {

    /** What one run of the command line printed and returned. */
    record Run(int exitCode, String out, String err) {

        static Run of(String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exitCode = ClaimGuardCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
            return new Run(exitCode, out.toString(), err.toString());
        }
    }

    @Test
    @DisplayName("Scenario: No command, or Spring Boot options only, start the service")
    void serviceArguments() {
        assertThat(ServeCommand.isServe(new String[0])).isTrue();
        assertThat(ServeCommand.isServe(new String[] {"serve", "--claimguard.file.inbox=x"})).isTrue();
        assertThat(ServeCommand.serviceArguments(new String[] {"serve", "--claimguard.file.inbox=x"}))
                .containsExactly("--claimguard.file.inbox=x");
        assertThat(ServeCommand.isServe(new String[] {"--claimguard.kafka.enabled=true", "--server.port=0"})).isTrue();
        assertThat(ServeCommand.serviceArguments(new String[] {"--claimguard.kafka.enabled=true"}))
                .containsExactly("--claimguard.kafka.enabled=true");
    }

    @Test
    @DisplayName("Scenario: Help, version and a tool command never start the service")
    void toolsDoNotServe() {
        for (String[] args : new String[][] {{"--help"}, {"-h"}, {"-V"}, {"--version"}, {"serve", "--help"},
                {"verify-chain"}, {"help", "serve"}}) {
            assertThat(ServeCommand.isServe(args)).as(String.join(" ", args)).isFalse();
        }
        Run serveHelp = Run.of("serve", "--help");
        assertThat(serveHelp.exitCode()).isZero();
        assertThat(serveHelp.out()).contains("Usage: claimguard serve").contains("Run the service");
        Run version = Run.of("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("ClaimGuard ");
    }

    @Test
    @DisplayName("Scenario: The help lists every command and the exit codes")
    void helpListsCommands() {
        Run help = Run.of("--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("serve", "verify-chain", "Exit codes:")
                .containsPattern("(?m)^\\s+0\\s").containsPattern("(?m)^\\s+1\\s")
                .containsPattern("(?m)^\\s+2\\s").containsPattern("(?m)^\\s+3\\s");
        for (String command : commandNames()) {
            assertThat(help.out()).as(command).contains(command);
            Run commandHelp = Run.of(command, "--help");
            assertThat(commandHelp.exitCode()).as(command).isZero();
            assertThat(commandHelp.out()).as(command).contains("Usage: claimguard " + command);
        }
    }

    @Test
    @DisplayName("Scenario: An unknown command or option is a usage error")
    void usageErrors() {
        Run unknownCommand = Run.of("frobnicate");
        assertThat(unknownCommand.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownCommand.err()).contains("'frobnicate'", "Try 'claimguard --help' for more information.")
                .doesNotContain("Usage:");

        Run unknownOption = Run.of("verify-chain", "--no-such-option");
        assertThat(unknownOption.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownOption.err()).startsWith("claimguard verify-chain: ").contains("--no-such-option",
                "Try 'claimguard verify-chain --help' for more information.").doesNotContain("Usage:");
    }

    @Test
    @DisplayName("Scenario: An unreachable database is named on one line with exit code 3")
    void unreachableDatabase() {
        Run run = Run.of("verify-chain", "--db-url", "jdbc:postgresql://127.0.0.1:1/claimguard", "--db-user", "auditor");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(run.err().strip().lines()).singleElement().asString()
                .startsWith("claimguard verify-chain: cannot reach the audit database at "
                        + "jdbc:postgresql://127.0.0.1:1/claimguard as auditor: ")
                .doesNotContain("Exception", "\tat ");
    }

    /** Every command registered with the command line, from picocli's model (the help command aside). */
    private static Set<String> commandNames() {
        Set<String> names = new TreeSet<>(new CommandLine(new ClaimGuardCli()).getSubcommands().keySet());
        names.remove("help");
        return names;
    }
}
