package io.claimguard.cli;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import java.time.Duration;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import picocli.CommandLine.Option;

/** How a tool reaches the broker; the defaults are those of the service's embedded broker (or its environment). */
public final class BrokerOptions {

    /** How long a tool waits for the broker to answer one call (connect, send, commit). */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    @Option(names = "--broker", paramLabel = "URL", defaultValue = "${env:SPRING_ARTEMIS_BROKER_URL:-tcp://127.0.0.1:61616}",
            description = "Artemis broker (core protocol; default: $SPRING_ARTEMIS_BROKER_URL or ${DEFAULT-VALUE}, the embedded broker's acceptor)")
    String url;

    @Option(names = "--broker-user", paramLabel = "USER", defaultValue = "${env:SPRING_ARTEMIS_USER}",
            description = "broker login (default: $SPRING_ARTEMIS_USER, none)")
    String user;

    @Option(names = "--broker-password", paramLabel = "PASSWORD", defaultValue = "${env:SPRING_ARTEMIS_PASSWORD}",
            description = "broker password (default: $SPRING_ARTEMIS_PASSWORD)")
    String password;

    /** The broker's connection factory; the caller closes it. */
    public ActiveMQConnectionFactory connectionFactory() {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url);
        // a tool gives up at once when the broker is away, instead of retrying as the service does, and a broker that
        // accepts but does not answer holds it up for seconds, not the client's default 30
        factory.setReconnectAttempts(0);
        factory.setInitialConnectAttempts(1);
        factory.setCallTimeout(CALL_TIMEOUT.toMillis());
        return factory;
    }

    /** An open connection, or a {@link ToolFailure} that names the broker. */
    public Connection connect(ActiveMQConnectionFactory factory) {
        try {
            return factory.createConnection(user, password);
        } catch (JMSException e) {
            throw new ToolFailure("cannot reach the broker at " + url, e);
        }
    }

    public String url() {
        return url;
    }
}
