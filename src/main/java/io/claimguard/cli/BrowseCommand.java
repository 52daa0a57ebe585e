package io.claimguard.cli;

import io.claimguard.broker.BrokerRole;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.io.PrintWriter;
import java.util.Enumeration;
import java.util.concurrent.Callable;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Shows the messages waiting on a queue without taking them. */
@Command(name = "browse", mixinStandardHelpOptions = true,
        description = {
            "Show the messages waiting on a queue without taking them.",
            JsonLines.DESCRIBED + " A summary line goes to standard error."},
        footer = {"", "Example: claimguard browse --max 5 --selector \"ClaimGuardVerdict = 'REJECT'\" | jq .body.verdict"})
final class BrowseCommand implements Callable<Integer> {

    @Mixin
    private BrokerOptions broker;

    @Mixin
    private QueueOptions queueOptions;

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "QUEUE",
            description = "the queue (default: the output queue); the output queue is browsed with the consumer's login,"
                    + " any other (the dead-letter queue) with the operator's")
    private String queue;

    @Option(names = "--output-queue", paramLabel = "QUEUE", defaultValue = "${env:CLAIMGUARD_JMS_OUTPUT_QUEUE:-verifier.effective}",
            description = "the service's output queue (default: $CLAIMGUARD_JMS_OUTPUT_QUEUE or ${DEFAULT-VALUE})")
    private String outputQueue;

    private int max;

    @Option(names = "--max", paramLabel = "N", defaultValue = "20", description = "show at most N messages (default: ${DEFAULT-VALUE})")
    void setMax(int max) {
        this.max = QueueOptions.max(spec, max);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int shown = 0;
        boolean more;
        String queue = this.queue != null ? this.queue : outputQueue;
        BrokerRole role = queue.equals(outputQueue) ? BrokerRole.CONSUMER : BrokerRole.OPERATOR;
        try (ActiveMQConnectionFactory factory = broker.connectionFactory();
                Connection connection = broker.connect(factory, role);
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                // a null selector selects every message
                QueueBrowser browser = session.createBrowser(session.createQueue(queue), queueOptions.selector)) {
            connection.start();
            Enumeration<?> messages = browser.getEnumeration();
            while (shown < max && messages.hasMoreElements()) {
                out.println(JsonLines.line(JsonLines.describe((Message) messages.nextElement())));
                shown++;
            }
            out.flush();
            more = messages.hasMoreElements();
        } catch (JMSException e) {
            throw queueOptions.failure(broker, role, "browsing " + queue, e);
        }
        spec.commandLine().getErr().println("%d message(s) shown of %s at %s%s".formatted(shown, queue, broker.url(),
                more ? " (more are waiting: --max)" : ""));
        return ExitCodes.OK;
    }
}
