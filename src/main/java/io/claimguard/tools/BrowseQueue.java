package io.claimguard.tools;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.Enumeration;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Prints the messages waiting on a queue without consuming them, for looking at results by hand:
 * {@code ./mvnw -q exec:java -Dexec.mainClass=io.claimguard.tools.BrowseQueue -Dexec.args="verifier.effective"}.
 *
 * <p>Options: {@code --broker URL} (default {@code tcp://127.0.0.1:61616}), {@code --max N} (default 20).
 */
public final class BrowseQueue {

    private BrowseQueue() {
    }

    public static void main(String[] args) throws JMSException {
        String broker = "tcp://127.0.0.1:61616";
        String queue = "verifier.effective";
        int max = 20;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--broker" -> broker = args[++i];
                case "--max" -> max = Integer.parseInt(args[++i]);
                default -> queue = args[i];
            }
        }
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(broker);
                Connection connection = factory.createConnection();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
            connection.start();
            Enumeration<?> messages = browser.getEnumeration();
            int shown = 0;
            while (messages.hasMoreElements() && shown < max) {
                Message message = (Message) messages.nextElement();
                shown++;
                System.out.println(message.getJMSMessageID() + " " + properties(message));
                System.out.println("  " + (message instanceof TextMessage text ? text.getText() : "(" + message.getClass().getSimpleName() + ")"));
            }
            System.out.println(shown + " message(s) shown from " + queue + " at " + broker);
        }
    }

    private static String properties(Message message) throws JMSException {
        StringBuilder text = new StringBuilder();
        Enumeration<?> names = message.getPropertyNames();
        while (names.hasMoreElements()) {
            String name = (String) names.nextElement();
            if (!name.startsWith("JMSX") && !name.startsWith("_")) {
                text.append(name).append('=').append(message.getObjectProperty(name)).append(' ');
            }
        }
        return text.toString().trim();
    }
}
