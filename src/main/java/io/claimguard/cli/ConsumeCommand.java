package io.claimguard.cli;

import io.claimguard.broker.BrokerRole;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.boot.convert.DurationStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

/** Takes results off the output queue and prints them, one JSON document a line, without losing one. */
@Command(name = "consume", mixinStandardHelpOptions = true,
        description = {
            "Take results off a queue (the output queue by default) and print them as JSON lines.",
            "Each message's body is printed as it was sent, one per line; a body that holds a line break is written again compactly (a body that is not JSON then becomes one JSON string). With --with-properties each message is printed as browse prints it instead, its properties (the signature among them) beside its body: the lines verify-result reads. Each message is taken in a transaction committed only after its line is written and flushed: a consumer that dies loses nothing, at worst it prints a message again. A summary line goes to standard error.",
            "Stops after --max messages, or when none came for --wait; with --follow it runs until SIGINT or SIGTERM and then exits with 0."},
        footer = {"", "Example: claimguard consume --wait 5s | jq -c '{request_id, verdict}'",
            "         claimguard consume --with-properties | claimguard verify-result --public-key result-signing.key.pub -"})
final class ConsumeCommand implements Callable<Integer> {

    /** How often a --follow loop looks whether it was asked to stop. */
    private static final Duration FOLLOW_POLL = Duration.ofMillis(500);

    @Mixin
    private BrokerOptions broker;

    @Mixin
    private QueueOptions queueOptions;

    @Spec
    private CommandSpec spec;

    @Option(names = "--queue", paramLabel = "QUEUE", defaultValue = "${env:CLAIMGUARD_JMS_OUTPUT_QUEUE:-verifier.effective}",
            description = "the queue (default: the output queue, $CLAIMGUARD_JMS_OUTPUT_QUEUE or ${DEFAULT-VALUE})")
    private String queue;

    @Option(names = "--follow", description = "keep taking messages until SIGINT or SIGTERM (--wait does not apply)")
    private boolean follow;

    @Option(names = "--with-properties", description = "print each message as browse does: {message_id, timestamp,"
            + " properties, body_encoding, body}, the body as sent; what verify-result reads")
    private boolean withProperties;

    private int max = Integer.MAX_VALUE;
    private Duration wait;

    @Option(names = "--max", paramLabel = "N", description = "stop after N messages (default: no limit)")
    void setMax(int max) {
        this.max = QueueOptions.max(spec, max);
    }

    @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "2s",
            description = "stop when no message came for this long: 500ms, 2s, 1m (default: ${DEFAULT-VALUE})")
    void setWait(String text) {
        try {
            wait = DurationStyle.detectAndParse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "Invalid value for option '--wait': '" + text + "' is not a duration such as 500ms, 2s or 1m");
        }
        if (wait.isNegative() || wait.isZero()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid value for option '--wait': must be positive");
        }
    }

    @Override
    public Integer call() {
        if (!follow) {
            report(consume(null));
            return ExitCodes.OK;
        }
        try (StopOnSignal stop = new StopOnSignal()) {
            report(consume(stop));
            stop.completed();
            return ExitCodes.OK;
        }
    }

    private void report(int taken) {
        spec.commandLine().getErr().println("%d message(s) taken from %s at %s".formatted(taken, queue, broker.url()));
        spec.commandLine().getErr().flush();
    }

    private int consume(StopOnSignal stop) {
        PrintWriter out = spec.commandLine().getOut();
        int taken = 0;
        try (ActiveMQConnectionFactory factory = broker.connectionFactory();
                Connection connection = broker.connect(factory, BrokerRole.CONSUMER);
                Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
                // a null selector selects every message
                MessageConsumer consumer = session.createConsumer(session.createQueue(queue), queueOptions.selector)) {
            connection.start();
            while (taken < max && (stop == null || !stop.requested())) {
                Message message = consumer.receive((follow ? FOLLOW_POLL : wait).toMillis());
                if (message == null) {
                    if (follow) {
                        continue;
                    }
                    break;
                }
                out.println(withProperties ? JsonLines.line(JsonLines.describe(message)) : line(message));
                // checkError flushes: the message is committed (gone from the queue) only once its line is out
                if (out.checkError()) {
                    session.rollback();
                    throw new ToolFailure("cannot write to standard output; message " + message.getJMSMessageID()
                            + " stays on " + queue, null);
                }
                session.commit();
                taken++;
            }
        } catch (JMSException e) {
            throw queueOptions.failure(broker, BrokerRole.CONSUMER, "taking messages from " + queue
                    + " (" + taken + " taken before)", e);
        }
        return taken;
    }

    /** The body as sent, when it is one line; else written again as one line. */
    private static String line(Message message) throws JMSException {
        String text = JsonLines.text(message);
        if (text == null) {
            byte[] bytes = JsonLines.bytes(message);
            text = bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
        }
        if (JsonLines.isOneLine(text)) {
            return text;
        }
        JsonNode json = JsonLines.parsed(text);
        return json != null ? JsonLines.line(json) : JsonLines.line(text);
    }
}
