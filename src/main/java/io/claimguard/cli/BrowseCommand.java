package io.claimguard.cli;

import io.claimguard.broker.BrokerRole;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Base64;
import java.util.Enumeration;
import java.util.concurrent.Callable;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Shows the messages waiting on a queue without taking them. */
@Command(name = "browse", mixinStandardHelpOptions = true,
        description = {
            "Show the messages waiting on a queue without taking them.",
            "One JSON line per message on standard output: {\"message_id\", \"timestamp\", \"properties\" (ClaimGuardRequestId, ClaimGuardVerdict, ClaimGuardAuditId and any other of the sender's), \"body_encoding\", \"body\"}. The body is embedded as JSON when it is JSON text (\"body_encoding\": \"json\"), else as a string (\"text\"); a BytesMessage's body is base64 (\"base64\"). A summary line goes to standard error."},
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
                out.println(JsonLines.line(describe((Message) messages.nextElement())));
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

    private static ObjectNode describe(Message message) throws JMSException {
        ObjectNode line = JsonLines.MAPPER.createObjectNode();
        line.put("message_id", message.getJMSMessageID());
        line.put("timestamp", message.getJMSTimestamp() == 0 ? null : Instant.ofEpochMilli(message.getJMSTimestamp()).toString());
        ObjectNode properties = line.putObject("properties");
        for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            // JMS's and the broker's own properties (JMSXDeliveryCount, _AMQ_...) are not the sender's
            if (!name.startsWith("JMS") && !name.startsWith("_")) {
                properties.set(name, JsonLines.MAPPER.valueToTree(message.getObjectProperty(name)));
            }
        }
        String text = JsonLines.text(message);
        byte[] bytes = JsonLines.bytes(message);
        JsonNode json = text == null ? null : JsonLines.parsed(text);
        if (json != null) {
            line.put("body_encoding", "json");
            line.set("body", json);
        } else if (text != null) {
            line.put("body_encoding", "text");
            line.put("body", text);
        } else if (bytes != null) {
            line.put("body_encoding", "base64");
            line.put("body", Base64.getEncoder().encodeToString(bytes));
        } else {
            line.put("body_encoding", "none");
            line.put("body", "(" + message.getClass().getSimpleName() + ": not shown)");
        }
        return line;
    }
}
