package io.claimguard.tools;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Sends envelope files to ClaimGuard's input queue, one JMS message each, for trying the service by hand:
 * {@code ./mvnw -q exec:java -Dexec.mainClass=io.claimguard.tools.SendEnvelope -Dexec.args="examples/mode-legacy.json"}.
 *
 * <p>Options: {@code --broker URL} (default {@code tcp://127.0.0.1:61616}, the embedded broker's acceptor),
 * {@code --queue NAME} (default {@code verifier.results}), {@code --bytes} to send BytesMessages instead of
 * TextMessages.
 */
public final class SendEnvelope {

    private SendEnvelope() {
    }

    public static void main(String[] args) throws IOException, JMSException {
        String broker = "tcp://127.0.0.1:61616";
        String queue = "verifier.results";
        boolean asBytes = false;
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--broker" -> broker = value(args, ++i, "--broker");
                case "--queue" -> queue = value(args, ++i, "--queue");
                case "--bytes" -> asBytes = true;
                default -> files.add(Path.of(args[i]));
            }
        }
        if (files.isEmpty()) {
            System.err.println("usage: SendEnvelope [--broker URL] [--queue NAME] [--bytes] FILE...");
            System.exit(2);
        }
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(broker);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(session.createQueue(queue))) {
            for (Path file : files) {
                byte[] content = Files.readAllBytes(file);
                Message message;
                if (asBytes) {
                    BytesMessage bytes = session.createBytesMessage();
                    bytes.writeBytes(content);
                    message = bytes;
                } else {
                    message = session.createTextMessage(new String(content, StandardCharsets.UTF_8));
                }
                producer.send(message);
                System.out.println("sent " + file + " (" + content.length + " bytes) to " + queue + " at " + broker
                        + " as " + message.getJMSMessageID());
            }
        }
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }
}
