package io.claimguard.testkit;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
import io.claimguard.broker.CredentialsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.jms.connection.CachingConnectionFactory;

/**
 * The broker logins every test service and test broker knows: one per role, with passwords generated for this JVM
 * (stable for its whole run, so that Spring's cached test contexts share them). Tests and harnesses log in with the
 * role their step plays, as the producers, consumers and operators outside ClaimGuard do: none of them has more.
 */
public final class TestBrokerUsers {

    private static final BrokerUsers USERS = BrokerUsers.generate(new SecureRandom());
    private static final Map<String, CachingConnectionFactory> FACTORIES = new ConcurrentHashMap<>();

    private TestBrokerUsers() {
    }

    public static BrokerUsers users() {
        return USERS;
    }

    public static BrokerLogin login(BrokerRole role) {
        return USERS.login(role).orElseThrow();
    }

    /**
     * The service properties that configure these logins on its embedded broker: ClaimGuard's own as
     * {@code spring.artemis.user} and {@code .password}, the others as {@code claimguard.broker.users.<role>.*}. With an
     * external broker ({@code spring.artemis.mode=native}) the same properties make the service log in as its own user.
     */
    public static Map<String, String> serviceProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        USERS.logins().forEach((role, login) -> {
            if (role == BrokerRole.SERVICE) {
                properties.put("spring.artemis.user", login.user());
                properties.put("spring.artemis.password", login.password());
            } else {
                properties.put("claimguard.broker.users." + role.key() + ".user", login.user());
                properties.put("claimguard.broker.users." + role.key() + ".password", login.password());
            }
        });
        return properties;
    }

    /** A credentials file holding these logins, as the service writes it, for the command-line tools. */
    public static Path credentialsFile(Path folder) {
        Path file = folder.resolve("credentials.properties");
        if (!Files.exists(file)) {
            CredentialsFile.create(file, USERS, Instant.now());
        }
        return file;
    }

    /** An AMQP URL with the role's login ({@code amqp://user:password@127.0.0.1:port}; the passwords need no escaping). */
    public static String amqpUrl(int port, BrokerRole role) {
        BrokerLogin login = login(role);
        return "amqp://" + login.user() + ":" + login.password() + "@127.0.0.1:" + port;
    }

    /**
     * A JMS connection factory for the broker at {@code url} with the role's login, one per broker and role for the
     * JVM's life; its connection is opened again after the broker went away.
     */
    public static CachingConnectionFactory connectionFactory(String url, BrokerRole role) {
        return FACTORIES.computeIfAbsent(url + " " + role, key -> {
            BrokerLogin login = login(role);
            CachingConnectionFactory factory = new CachingConnectionFactory(
                    new ActiveMQConnectionFactory(url, login.user(), login.password()));
            factory.setReconnectOnException(true);
            factory.setSessionCacheSize(4);
            return factory;
        });
    }
}
