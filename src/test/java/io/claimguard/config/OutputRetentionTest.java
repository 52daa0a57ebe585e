package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The embedded broker's retention of unconsumed results, on a real (in-VM, non-persistent) Artemis broker. */
class OutputRetentionTest {

    private static final String OUTPUT_QUEUE = "retention.effective";
    private static final String OTHER_QUEUE = "retention.other";

    @Test
    @DisplayName("Scenario: A result nobody consumes is dropped from the output queue after the retention")
    void unconsumedResultsExpire() throws Exception {
        EmbeddedActiveMQ broker = brokerWithRetention("300ms");
        try (ServerLocator locator = ActiveMQClient.createServerLocator("vm://0");
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession()) {
            sendOneTo(session, OUTPUT_QUEUE);
            sendOneTo(session, OTHER_QUEUE);
            assertThat(depth(session, OUTPUT_QUEUE)).isEqualTo(1);

            await().atMost(Duration.ofSeconds(10)).until(() -> depth(session, OUTPUT_QUEUE) == 0);
            assertThat(depth(session, OTHER_QUEUE)).as("a queue without retention keeps its message").isEqualTo(1);
        } finally {
            broker.stop();
        }
    }

    @Test
    @DisplayName("A retention of zero keeps results until they are consumed")
    void zeroKeepsResults() throws Exception {
        EmbeddedActiveMQ broker = brokerWithRetention("0s");
        try {
            assertThat(broker.getActiveMQServer().getAddressSettingsRepository().getMatch(OUTPUT_QUEUE).getExpiryDelay())
                    .as("Artemis' default: no expiry").isEqualTo(-1L);
        } finally {
            broker.stop();
        }
    }

    private static EmbeddedActiveMQ brokerWithRetention(String retention) throws Exception {
        ClaimGuardProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
                "claimguard.jms.output-queue", OUTPUT_QUEUE,
                "claimguard.broker.output-retention", retention)))
                .bind("claimguard", ClaimGuardProperties.class).get();
        ConfigurationImpl configuration = new ConfigurationImpl();
        configuration.setPersistenceEnabled(false);
        configuration.setSecurityEnabled(false);
        configuration.setMessageExpiryScanPeriod(50);
        configuration.addAcceptorConfiguration("in-vm", "vm://0");
        for (String queue : new String[] {OUTPUT_QUEUE, OTHER_QUEUE}) {
            configuration.addQueueConfiguration(QueueConfiguration.of(queue).setRoutingType(RoutingType.ANYCAST));
        }
        new EmbeddedBrokerConfiguration().outputQueueRetention(properties).customize(configuration);
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ();
        broker.setConfiguration(configuration);
        return broker.start();
    }

    private static void sendOneTo(ClientSession session, String queue) throws Exception {
        try (ClientProducer producer = session.createProducer(queue)) {
            producer.send(session.createMessage(false));
        }
    }

    private static long depth(ClientSession session, String queue) throws Exception {
        return session.queueQuery(SimpleString.of(queue)).getMessageCount();
    }
}
