package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/** {@code claimguard send}: envelope files to the input queue, and what became of each. */
class SendCommandIT extends ServiceTestSupport {

    @TempDir
    Path folder;

    @Autowired
    CamelContext camel;

    @Test
    @DisplayName("Scenario: A sent file is audited and its line names the audit id and verdict")
    void sentFileIsAudited() throws Exception {
        String requestId = uniqueId("send-new");
        // the shipped example, under a request id of this test's own
        String example = Files.readString(Path.of("examples/guard-gatekeeper-fail.json"));
        Path file = Files.writeString(folder.resolve("guard-gatekeeper-fail.json"),
                example.replace("\"chat-2f91.req-0106\"", "\"" + requestId + "\""));

        CliRun run = CliRun.against("send", file.toString());

        Map<String, Object> row = auditRows(requestId).get(0);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines()).containsExactly(file + " -> audit_id " + row.get("id")
                + ": LOW_CONFID (model PASS; guard: gatekeeper.fail)");
        assertThat(row).containsEntry("source", "jms").containsEntry("effective_verdict", "LOW_CONFID");
    }

    @Test
    @DisplayName("Scenario: Sending bytes audited before names the earlier audit row")
    void sameBytesAgainIsADuplicate() throws Exception {
        String requestId = uniqueId("send-twice");
        Path file = Files.writeString(folder.resolve("twice.json"), passingV1(requestId));
        assertThat(CliRun.against("send", file.toString()).exitCode()).isEqualTo(ExitCodes.OK);
        Map<String, Object> first = auditRows(requestId).get(0);

        CliRun again = CliRun.against("send", "--bytes", file.toString());

        assertThat(again.exitCode()).as(again.err()).isEqualTo(ExitCodes.OK);
        assertThat(again.lines()).singleElement().asString()
                .startsWith(file + " -> duplicate of audit_id " + first.get("id") + " (byte-identical input audited 20")
                .endsWith("Z): no new row; its result is forwarded again");
        assertThat(auditRows(requestId)).hasSize(1);

        String twiceInOneRun = uniqueId("send-twice-in-one-run");
        Path same = Files.writeString(folder.resolve("same.json"), passingV1(twiceInOneRun));
        CliRun both = CliRun.against("send", same.toString(), same.toString());
        Object auditId = auditRows(twiceInOneRun).get(0).get("id");
        assertThat(both.exitCode()).as(both.err()).isEqualTo(ExitCodes.OK);
        assertThat(both.lines()).hasSize(2);
        assertThat(both.lines().get(0)).isEqualTo(same + " -> audit_id " + auditId + ": PASS (model PASS; no guard rule fired)");
        assertThat(both.lines().get(1)).startsWith(same + " -> duplicate of audit_id " + auditId + " (");
        assertThat(auditRows(twiceInOneRun)).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: A sent file that is rejected names the reason and exits with 1")
    void rejectedFileNamesTheReason() throws Exception {
        Path good = Files.writeString(folder.resolve("good.json"), passingV1(uniqueId("send-good")));
        Path bad = Files.writeString(folder.resolve("bad.json"), "{\"request_id\": \"" + uniqueId("send-bad") + "\", ");

        CliRun run = CliRun.against("send", good.toString(), bad.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().get(0)).startsWith(good + " -> audit_id ").endsWith(": PASS (model PASS; no guard rule fired)");
        assertThat(run.lines().get(1)).startsWith(bad + " -> rejected: not_json: ").containsPattern("\\(dead_letter \\d+\\)$");
    }

    @Test
    @DisplayName("Scenario: Send without waiting needs no database")
    void noWaitNeedsNoDatabase() throws Exception {
        String requestId = uniqueId("send-no-wait");
        Path file = Files.writeString(folder.resolve("no-wait.json"), passingV1(requestId));

        CliRun run = CliRun.of("send", "--no-wait", "--broker", "tcp://127.0.0.1:" + BROKER_PORT,
                "--broker-credentials", BROKER_CREDENTIALS.toString(), "--queue", INPUT_QUEUE,
                "--db-url", "jdbc:postgresql://127.0.0.1:1/nowhere", file.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines()).singleElement().asString().startsWith(file + " -> sent to " + INPUT_QUEUE + " as ID:");
        assertThat(awaitAuditRow(requestId)).containsEntry("source", "jms");
    }

    @Test
    @DisplayName("Scenario: Send without a file is a usage error, an unreadable file is named with exit code 3")
    void usageErrors() throws Exception {
        CliRun noFile = CliRun.against("send");
        assertThat(noFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noFile.err()).contains("FILE");

        String requestId = uniqueId("send-unread");
        Path readable = Files.writeString(folder.resolve("readable.json"), passingV1(requestId));
        Path missing = folder.resolve("missing.json");
        CliRun unreadable = CliRun.against("send", readable.toString(), missing.toString());
        assertThat(unreadable.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(unreadable.err().strip()).startsWith("claimguard send: cannot read " + missing).doesNotContain("\tat ");
        // nothing is sent when one file cannot be read
        assertThat(unreadable.lines()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Inputs still pending at the timeout are named with exit code 3")
    void pendingAtTheTimeout() throws Exception {
        String requestId = uniqueId("send-pending");
        Path file = Files.writeString(folder.resolve("unread.json"), passingV1(requestId));

        // the JMS intake held: the input waits on the queue, unaudited, until it goes on
        camel.getRouteController().stopRoute("jms-intake");
        CliRun run;
        try {
            run = CliRun.against("send", "--timeout", "1s", file.toString());
        } finally {
            camel.getRouteController().startRoute("jms-intake");
        }

        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(run.lines()).singleElement().asString().startsWith(file + " -> pending: sent as ID:");
        assertThat(run.err().strip()).startsWith("claimguard send: no audit or dead-letter row after 1.0 s for 1 of 1"
                + " inputs, still pending: " + file);
        assertThat(awaitAuditRow(requestId)).as("audited once the intake goes on").containsEntry("source", "jms");
    }
}
