package io.claimguard.harness.bench;

import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.harness.bench.BenchEnvelopes.BenchEnvelope;
import io.claimguard.testkit.KafkaClient;
import io.claimguard.testkit.TestBrokerUsers;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/**
 * End-to-end latency under a steady load below the maximum: inputs handed over at a fixed rate (a schedule, not a
 * sleep after each send, so that a slow send does not lower the rate), results read from the output queue as
 * they come, matched to their input by request_id ({@code ClaimGuardRequestId}). The latency of an input is the
 * time from the moment it was handed over to the moment its result arrived, both on this JVM's monotonic clock.
 */
final class LatencyProbe {

    /** The service's output property naming the request a result belongs to. */
    private static final String REQUEST_ID_PROPERTY = "ClaimGuardRequestId";

    /** Where results arrive, stamped by request id as they come: the JMS output queue or the Kafka output topic. */
    interface Results extends AutoCloseable {
        Map<String, Long> receivedAt();

        /** Throws what went wrong reading the results, if anything did. */
        void rethrowFailure() throws Exception;
    }

    /** How one input is handed to the service: a JMS send, a file drop or a Kafka record. */
    interface Sender extends AutoCloseable {
        void send(BenchEnvelope envelope) throws Exception;

        @Override
        void close() throws JMSException;
    }

    /**
     * @param targetRate inputs per second asked for; {@code achievedRate} what the sender kept up
     * @param missing inputs whose result did not arrive within the patience: lost, for the report
     */
    record Latency(double targetRate, double achievedRate, int inputs, int missing, double p50Millis, double p99Millis,
            double maxMillis) {
    }

    private LatencyProbe() {
    }

    static Latency measure(Results listener, List<BenchEnvelope> envelopes, double rate, Sender sender,
            Duration resultPatience) throws Exception {
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        Map<String, Long> receivedAt = listener.receivedAt();
        double achievedRate;
        try (listener; sender) {
            long period = Math.round(1e9 / rate);
            long started = System.nanoTime();
            for (int k = 0; k < envelopes.size(); k++) {
                parkUntil(started + k * period);
                BenchEnvelope envelope = envelopes.get(k);
                // stamped before the hand-over, so that a result can never arrive before its input was sent
                sentAt.put(envelope.requestId(), System.nanoTime());
                sender.send(envelope);
            }
            achievedRate = envelopes.size() / ((System.nanoTime() - started + period) / 1e9);
            try {
                await("results of the latency inputs").atMost(resultPatience).pollDelay(Duration.ZERO)
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            listener.rethrowFailure();
                            return receivedAt.keySet().containsAll(sentAt.keySet());
                        });
            } catch (ConditionTimeoutException e) {
                // reported as missing results: the caller turns them into a problem of the run
            }
            listener.rethrowFailure();
        }
        long[] latencies = sentAt.entrySet().stream().filter(sent -> receivedAt.containsKey(sent.getKey()))
                .mapToLong(sent -> receivedAt.get(sent.getKey()) - sent.getValue()).sorted().toArray();
        int missing = sentAt.size() - latencies.length;
        return new Latency(rate, achievedRate, sentAt.size(), missing, percentileMillis(latencies, 0.50),
                percentileMillis(latencies, 0.99), latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1] / 1e6);
    }

    /** Nearest rank: the smallest latency that at least {@code share} of all latencies do not exceed. */
    static double percentileMillis(long[] sortedNanos, double share) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(share * sortedNanos.length);
        return sortedNanos[Math.max(0, rank - 1)] / 1e6;
    }

    private static void parkUntil(long due) {
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
    }

    /** Persistent TextMessages through the service's acceptor, as a producer of verifier results sends them. */
    static Sender jms(String brokerUrl, String queue) throws JMSException {
        BrokerLogin login = TestBrokerUsers.login(BrokerRole.PRODUCER);
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(brokerUrl, login.user(), login.password());
        // Persistent, but not waiting for each journal write: a blocking durable send costs a journal flush
        // (milliseconds), which would cap one sender below the rates it must keep.
        factory.setBlockOnDurableSend(false);
        Connection connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue(queue));
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        return new Sender() {
            @Override
            public void send(BenchEnvelope envelope) throws JMSException {
                producer.send(session.createTextMessage(new String(envelope.bytes(), StandardCharsets.UTF_8)));
            }

            @Override
            public void close() throws JMSException {
                connection.close();
                factory.close();
            }
        };
    }

    /** Files written under a temporary name and renamed into the inbox. */
    static Sender files(Path inbox) {
        return new Sender() {
            @Override
            public void send(BenchEnvelope envelope) throws Exception {
                Bench.dropFile(inbox, envelope);
            }

            @Override
            public void close() {
            }
        };
    }

    /** Records without waiting for each acknowledgement (a blocking send would cap the rate), keyed by request id. */
    static Sender kafka(KafkaClient client, String topic) {
        return new Sender() {
            @Override
            public void send(BenchEnvelope envelope) {
                client.produceWithoutWaiting(topic, envelope.requestId(), envelope.bytes());
            }

            @Override
            public void close() {
            }
        };
    }

    /** The results on the JMS output queue. */
    static Results jmsResults(String brokerUrl, String queue) throws JMSException {
        return new JmsResults(brokerUrl, queue);
    }

    /** The results produced to the Kafka output topic from now on (keyed by request id). */
    static Results kafkaResults(String bootstrapServers, String topic) {
        return new KafkaResults(bootstrapServers, topic);
    }

    /** Reads the output queue on the JMS client's own thread and stamps each result as it arrives. */
    private static final class JmsResults implements Results {

        private final ActiveMQConnectionFactory factory;
        private final Connection connection;
        private final Map<String, Long> receivedAt = new ConcurrentHashMap<>();
        private final AtomicReference<Exception> failure = new AtomicReference<>();

        JmsResults(String brokerUrl, String queue) throws JMSException {
            BrokerLogin login = TestBrokerUsers.login(BrokerRole.CONSUMER);
            factory = new ActiveMQConnectionFactory(brokerUrl, login.user(), login.password());
            connection = factory.createConnection();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            consumer.setMessageListener(message -> {
                long now = System.nanoTime();
                try {
                    receivedAt.putIfAbsent(message.getStringProperty(REQUEST_ID_PROPERTY), now);
                } catch (JMSException | RuntimeException e) {
                    // a listener cannot throw to us: keep the first failure for the measuring thread
                    failure.compareAndSet(null, e);
                }
            });
            connection.start();
        }

        @Override
        public Map<String, Long> receivedAt() {
            return receivedAt;
        }

        @Override
        public void rethrowFailure() throws Exception {
            Exception first = failure.get();
            if (first != null) {
                throw new IllegalStateException("reading the output queue failed", first);
            }
        }

        @Override
        public void close() throws JMSException {
            connection.close();
            factory.close();
        }
    }

    /** Polls the output topic from its end on a thread of its own and stamps each result as its poll returns it. */
    private static final class KafkaResults implements Results {

        private final Map<String, Long> receivedAt = new ConcurrentHashMap<>();
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread poller;

        KafkaResults(String bootstrapServers, String topic) {
            KafkaConsumer<byte[], byte[]> consumer = KafkaClient.consumer(bootstrapServers);
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            // the end is looked up lazily: fix it now, before the first input is sent
            partitions.forEach(consumer::position);
            poller = new Thread(() -> {
                try (consumer) {
                    while (running.get()) {
                        for (var record : consumer.poll(Duration.ofMillis(20))) {
                            receivedAt.putIfAbsent(KafkaClient.text(record.key()), System.nanoTime());
                        }
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "latency-kafka-results");
            poller.start();
        }

        @Override
        public Map<String, Long> receivedAt() {
            return receivedAt;
        }

        @Override
        public void rethrowFailure() throws Exception {
            Exception first = failure.get();
            if (first != null) {
                throw new IllegalStateException("reading the output topic failed", first);
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            poller.join(Duration.ofSeconds(10).toMillis());
        }
    }
}
