package io.claimguard.cli;

import io.claimguard.broker.BrokerRole;
import io.claimguard.status.Inbox;
import io.claimguard.status.Part;
import io.claimguard.status.QueueDepth;
import io.claimguard.status.StatusReader;
import io.claimguard.status.StatusReport;
import io.claimguard.status.StatusReport.AuditFacts;
import io.claimguard.status.StatusReport.Queues;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The service's state in one call, from its database, its inbox and its broker. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {
            "Show the service's state in one call.",
            "Inputs audited in the last hour and day by effective verdict, downgrades, dead letters, the last audit's time, the audit chain's head, its head link checked, and what the newest verify-chain run found (how far, when, from which checkpoint; status does not recompute the chain), the backlog: *.json files in the inbox and the depth of the input, output and dead-letter queues. A part that cannot be reached (the broker down) is shown as unavailable with the reason; the rest is still shown.",
            "The management port's /actuator/claimguard answers the same JSON as --json (checking the chain's head link only)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:all read, the chain verifies (an unreachable broker or inbox is shown, not an error)",
            "1:the chain does not verify (the first broken link is named)", "2:wrong arguments",
            "3:the audit database unreachable (the rest is still shown)"})
final class StatusCommand implements Callable<Integer> {

    @Mixin
    private DatabaseOptions database;

    @Mixin
    private BrokerOptions broker;

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "print JSON (the fields are documented in docs/interface.md, \"Status\")")
    private boolean json;

    @Option(names = "--inbox", paramLabel = "DIR", defaultValue = "${env:CLAIMGUARD_FILE_INBOX:-data/inbox}",
            description = "the service's inbox (default: $CLAIMGUARD_FILE_INBOX or ${DEFAULT-VALUE})")
    private Path inbox;

    @Option(names = "--input-queue", paramLabel = "QUEUE", defaultValue = "${env:CLAIMGUARD_JMS_INPUT_QUEUE:-verifier.results}",
            description = "default: $CLAIMGUARD_JMS_INPUT_QUEUE or ${DEFAULT-VALUE}")
    private String inputQueue;

    @Option(names = "--output-queue", paramLabel = "QUEUE", defaultValue = "${env:CLAIMGUARD_JMS_OUTPUT_QUEUE:-verifier.effective}",
            description = "default: $CLAIMGUARD_JMS_OUTPUT_QUEUE or ${DEFAULT-VALUE}")
    private String outputQueue;

    @Option(names = "--dead-letter-queue", paramLabel = "QUEUE",
            defaultValue = "${env:CLAIMGUARD_JMS_DEAD_LETTER_QUEUE:-verifier.results.DLQ}",
            description = "default: $CLAIMGUARD_JMS_DEAD_LETTER_QUEUE or ${DEFAULT-VALUE}")
    private String deadLetterQueue;

    @Override
    public Integer call() {
        StatusReport report = new StatusReport(Instant.now(), auditFacts(), Inbox.backlog(inbox), queues());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonLines.line(report.json()));
        } else {
            report.lines().forEach(out::println);
        }
        out.flush();
        if (!report.audit().available()) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + report.audit().unavailable());
            return ExitCodes.UNAVAILABLE;
        }
        return report.chainBroken() ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    private Part<AuditFacts> auditFacts() {
        try (Connection connection = database.connect()) {
            return Part.of(StatusReader.read(connection));
        } catch (ToolFailure e) {
            return Part.unavailable(ToolFailure.describe(e));
        } catch (SQLException e) {
            return Part.unavailable(ToolFailure.describe(
                    new ToolFailure("cannot read the audit database at " + database.url() + " as " + database.user(), e)));
        }
    }

    /**
     * The depths as the broker counts them (a core-protocol queue query: no message is read), with the operator's
     * login.
     */
    private Part<Queues> queues() {
        List<QueueDepth> depths = new ArrayList<>();
        try (ServerLocator locator = ActiveMQClient.createServerLocator(broker.url())) {
            // as BrokerOptions' factory does for the JMS tools
            locator.setReconnectAttempts(0).setInitialConnectAttempts(1).setCallTimeout(BrokerOptions.CALL_TIMEOUT.toMillis());
            BrokerOptions.Login login = broker.login(BrokerRole.OPERATOR);
            try (ClientSessionFactory factory = locator.createSessionFactory();
                    ClientSession session = factory.createSession(login.user(), login.password(), false, true, true, false, 0)) {
                depths.add(depth(session, QueueDepth.INPUT, inputQueue));
                depths.add(depth(session, QueueDepth.OUTPUT, outputQueue));
                depths.add(depth(session, QueueDepth.DEAD_LETTER, deadLetterQueue));
            }
        } catch (ToolFailure e) {
            return Part.unavailable(ToolFailure.describe(e));
        } catch (Exception e) {
            return Part.unavailable(ToolFailure.describe(broker.failure(BrokerRole.OPERATOR, BrokerOptions.LOGGING_IN, e)));
        }
        return Part.of(new Queues(broker.url(), depths));
    }

    private static QueueDepth depth(ClientSession session, String role, String queue) throws Exception {
        ClientSession.QueueQuery query = session.queueQuery(SimpleString.of(queue));
        return new QueueDepth(role, queue, query.isExists() ? query.getMessageCount() : 0);
    }
}
