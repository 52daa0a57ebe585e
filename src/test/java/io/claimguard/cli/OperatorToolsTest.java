package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.cli.ClaimGuardCliTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The queue tools' and the status command's behaviour that needs neither a broker nor a database. */
class OperatorToolsTest {

    @Test
    @DisplayName("Scenario: A bad --max or --wait, or an unknown option, is a usage error")
    void usageErrors() {
        assertUsageError(Run.of("browse", "--max", "0"), "--max", "at least 1, not 0");
        assertUsageError(Run.of("consume", "--max", "x"), "--max", "'x'");
        assertUsageError(Run.of("consume", "--wait", "soon"), "--wait", "'soon'");
        assertUsageError(Run.of("consume", "--wait", "0s"), "--wait", "positive");
        assertUsageError(Run.of("consume", "--no-such-option"), "--no-such-option", "Unknown option");
        assertUsageError(Run.of("status", "--max", "3"), "--max", "Unknown option");

        // --help is never a queue's name
        Run help = Run.of("browse", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).startsWith("Usage: claimguard browse");
    }

    @Test
    @DisplayName("Scenario: An unreachable database makes status exit with 3 and still shows the rest")
    void unreachableDatabase(@TempDir Path inbox) throws IOException {
        Files.writeString(inbox.resolve("a.json"), "{}");
        Files.writeString(inbox.resolve("b.json"), "{}");
        Files.writeString(inbox.resolve("c.json.tmp"), "{");

        Run run = Run.of("status", "--json", "--db-url", "jdbc:postgresql://127.0.0.1:1/claimguard", "--db-user", "auditor",
                "--broker", "tcp://127.0.0.1:1", "--inbox", inbox.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(run.err().strip().lines()).singleElement().asString()
                .startsWith("claimguard status: cannot reach the audit database at jdbc:postgresql://127.0.0.1:1/claimguard as auditor: ")
                .doesNotContain("\tat ");
        JsonNode status = JsonLines.MAPPER.readTree(run.out());
        assertThat(status.path("audit").path("available").asBoolean()).isFalse();
        assertThat(status.path("audit").path("reason").asString()).contains("jdbc:postgresql://127.0.0.1:1/claimguard");
        assertThat(status.path("inbox").path("available").asBoolean()).isTrue();
        assertThat(status.path("inbox").path("files").asLong()).isEqualTo(2);
        assertThat(status.path("queues").path("available").asBoolean()).isFalse();
        assertThat(status.path("queues").path("reason").asString()).startsWith("cannot reach the broker at tcp://127.0.0.1:1");
    }

    private static void assertUsageError(Run run, String argument, String detail) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).as(run.toString()).contains(argument).contains(detail);
    }
}
