package io.claimguard.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.signing.ResultSignatures;
import io.claimguard.testkit.Envelopes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Results sent in groups, one JMS transaction each, against a real (in-VM) Artemis broker. */
class ResultSenderTest {

    private static final int CALLERS = 16;
    private static final ResultSignatures.Signer SIGNER = new ResultSignatures.Signer(signingKey());

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private EmbeddedActiveMQ broker;
    private ActiveMQConnectionFactory connectionFactory;
    private String queue;
    private ResultSender sender;

    @BeforeEach
    void startBroker() throws Exception {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.apache.activemq.audit")).setLevel(Level.WARN);
        broker = new EmbeddedActiveMQ().setConfiguration(new ConfigurationImpl()
                .setPersistenceEnabled(false)
                .setSecurityEnabled(false)
                .addAcceptorConfiguration("in-vm", "vm://8"));
        broker.start();
        queue = "results-" + UUID.randomUUID();
        broker.getActiveMQServer().createQueue(new QueueConfiguration(queue).setRoutingType(RoutingType.ANYCAST));
        connectionFactory = new ActiveMQConnectionFactory("vm://8");
        sender = new ResultSender(connectionFactory, registry, queue, CALLERS);
    }

    @AfterEach
    void stopBroker() throws Exception {
        sender.destroy();
        connectionFactory.close();
        broker.stop();
    }

    @Test
    @DisplayName("Scenario: The results of concurrent inputs share one JMS transaction")
    void concurrentResultsShareTransactions() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> sends = new ArrayList<>();
        for (int i = 0; i < 4 * CALLERS; i++) {
            Exchange result = auditedResult("req-" + i, 1000L + i);
            sends.add(callers.submit(() -> {
                start.await();
                sender.send(result);
                return null;
            }));
        }
        start.countDown();
        for (Future<?> send : sends) {
            send.get();
        }
        callers.shutdown();

        // every caller returned after its result was committed: all are on the queue now, each with its properties
        Map<String, Map<String, Object>> received = receiveAll();
        assertThat(received).hasSize(4 * CALLERS);
        assertThat(received.get("req-5")).containsEntry(ResultProperties.AUDIT_ID, 1005L)
                .containsEntry(ResultProperties.REQUEST_ID, "req-5")
                .containsEntry(ResultProperties.VERDICT, "PASS")
                .containsEntry(ResultProperties.SIGNATURE_KEY_ID, SIGNER.keyId())
                .containsKey(ResultProperties.SIGNATURE)
                .hasSize(5);
        double groups = registry.get("claimguard.forward.batch.size").summary().count();
        assertThat(groups).as("transactions for %d results", 4 * CALLERS).isLessThan(4 * CALLERS);
        assertThat(registry.get("claimguard.forward.batch.size").summary().max()).isGreaterThan(1);
    }

    @Test
    @DisplayName("Scenario: A failure to forward fails every result of its group")
    void brokerFailureFailsTheCaller() throws Exception {
        broker.stop();

        assertThatThrownBy(() -> sender.send(auditedResult("req-lost", 7L)))
                .as("the caller learns that its result was not sent").isInstanceOf(Exception.class);
    }

    private Map<String, Map<String, Object>> receiveAll() throws Exception {
        Map<String, Map<String, Object>> byRequest = new HashMap<>();
        try (Connection connection = connectionFactory.createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            for (Message message = consumer.receive(2000); message != null; message = consumer.receiveNoWait()) {
                Map<String, Object> properties = new HashMap<>();
                for (String name : Collections.list((java.util.Enumeration<String>) message.getPropertyNames())) {
                    if (!name.startsWith("JMSX") && !name.startsWith("_")) {
                        properties.put(name, message.getObjectProperty(name));
                    }
                }
                assertThat(((TextMessage) message).getText()).contains("\"request_id\"");
                byRequest.put(message.getStringProperty(ResultProperties.REQUEST_ID), properties);
            }
        }
        return byRequest;
    }

    private static Ed25519Keys.SigningKey signingKey() {
        KeyPair pair = Ed25519Keys.generate();
        return new Ed25519Keys.SigningKey(pair.getPrivate(), pair.getPublic());
    }

    private static Exchange auditedResult(String requestId, long auditId) {
        Verification verification = Envelopes.clean().set("request_id", "'" + requestId + "'").verify();
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.FILE, requestId + ".json",
                OffsetDateTime.now(), verification.envelope().json().getBytes(StandardCharsets.UTF_8), null, null));
        InputExchange.accept(exchange, verification);
        InputExchange.audited(exchange, auditId, true);
        InputExchange.signed(exchange, SIGNER.sign("{\"request_id\":\"" + requestId + "\"}"));
        return exchange;
    }
}
