package io.claimguard.harness.faults;

import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.KafkaBroker;
import io.claimguard.testkit.KafkaClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The Kafka mode's broker and topics, seen as a producer of inputs and a reader of ClaimGuard's topics see them: a real
 * Kafka broker ({@link KafkaBroker}) with the service's default topics, the input topic in {@link #PARTITIONS}
 * partitions, and the service's default consumer group.
 */
final class KafkaEntry implements AutoCloseable {

    /** The service's defaults ({@code claimguard.kafka.*}): the harness runs the jar with them. */
    static final String INPUT_TOPIC = "verifier.results";
    static final String OUTPUT_TOPIC = "verifier.effective";
    static final String DEAD_LETTER_TOPIC = "verifier.results.DLT";
    static final String GROUP = "claimguard";
    static final int PARTITIONS = 3;

    /** Reading a topic back: it is complete long before this, unless records are missing. */
    private static final Duration READ_PATIENCE = Duration.ofMinutes(2);

    private final KafkaBroker broker;
    private final KafkaClient client;

    private KafkaEntry(KafkaBroker broker) {
        this.broker = broker;
        this.client = new KafkaClient(broker.bootstrapServers());
    }

    /** Formats and starts a broker in {@code folder} and creates the three topics. */
    static KafkaEntry start(Path folder) {
        KafkaBroker broker = KafkaBroker.create(folder);
        broker.createTopics(PARTITIONS, INPUT_TOPIC, OUTPUT_TOPIC, DEAD_LETTER_TOPIC);
        return new KafkaEntry(broker);
    }

    KafkaBroker broker() {
        return broker;
    }

    /** What the service needs to consume from this broker, beside its defaults. */
    Map<String, String> serviceProperties() {
        // the session timeout is the service's default (claimguard.kafka.session-timeout, 10 s): a killed instance's
        // partitions move on after it, which the run measures
        return Map.of("claimguard.kafka.enabled", "true",
                "claimguard.kafka.bootstrap-servers", broker.bootstrapServers());
    }

    /** Produces the inputs, keyed by their tag; returns the {@code source_ref} each one gets, by tag. */
    Map<String, String> produce(List<HarnessInput> inputs) {
        List<RecordMetadata> written = client.produceKeyed(INPUT_TOPIC, inputs.stream()
                .map(input -> Map.entry(input.tag(), input.bytes())).toList());
        Map<String, String> sourceRefs = new HashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            RecordMetadata record = written.get(i);
            sourceRefs.put(inputs.get(i).tag(), record.topic() + "-" + record.partition() + "@" + record.offset());
        }
        return sourceRefs;
    }

    /** Records of the input topic the group has committed, over all partitions: it grows only as batches complete. */
    long committed() {
        return client.committedOffsets(GROUP).entrySet().stream()
                .filter(entry -> entry.getKey().topic().equals(INPUT_TOPIC))
                .mapToLong(entry -> entry.getValue().offset()).sum();
    }

    /** The group's committed offset on each partition of the input topic that has one. */
    Map<TopicPartition, Long> committedByPartition() {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        client.committedOffsets(GROUP).forEach((partition, offset) -> {
            if (partition.topic().equals(INPUT_TOPIC)) {
                offsets.put(partition, offset.offset());
            }
        });
        return offsets;
    }

    Map<TopicPartition, Long> endOffsets() {
        return client.endOffsets(INPUT_TOPIC);
    }

    /**
     * Seconds from {@code since} until every partition that had records left ({@code committed} below {@code ends}) has
     * a committed offset beyond {@code committed}: some consumer took it and completed a batch; null if that did not
     * happen within {@code patience}.
     */
    Double secondsUntilEveryPartitionMoves(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> ends,
            Instant since, Duration patience) {
        try {
            await("every partition committed again").atMost(Duration.between(Instant.now(), since.plus(patience)))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200)).until(() -> {
                        Map<TopicPartition, Long> now = committedByPartition();
                        return ends.entrySet().stream().allMatch(end -> {
                            long before = committed.getOrDefault(end.getKey(), 0L);
                            return before >= end.getValue() || now.getOrDefault(end.getKey(), 0L) > before;
                        });
                    });
            return Duration.between(since, Instant.now()).toMillis() / 1000.0;
        } catch (ConditionTimeoutException e) {
            return null;
        }
    }

    /** Every partition's committed offset is its end offset: every record produced so far was taken for good. */
    boolean committedToEnd() {
        return offsets().committedToEnd();
    }

    /** Where the group stands on each partition of the input topic. */
    FaultReport.Kafka offsets() {
        Map<TopicPartition, Long> ends = client.endOffsets(INPUT_TOPIC);
        Map<TopicPartition, OffsetAndMetadata> committed = client.committedOffsets(GROUP);
        List<FaultReport.Partition> partitions = new ArrayList<>();
        ends.forEach((partition, end) -> {
            OffsetAndMetadata offset = committed.get(partition);
            partitions.add(new FaultReport.Partition(partition.partition(), end, offset == null ? null : offset.offset()));
        });
        partitions.sort(Comparator.comparingInt(FaultReport.Partition::partition));
        return new FaultReport.Kafka(INPUT_TOPIC, partitions, partitions.stream().allMatch(FaultReport.Partition::atEnd));
    }

    /** Every record on the topic, from the beginning to its end offsets as they are now. */
    List<Accounting.Sent> read(String topic) {
        long records = client.endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
        return client.readFromBeginning(topic, READ_PATIENCE, read -> read.size() >= records).stream()
                .map(Accounting.Sent::of).toList();
    }

    @Override
    public void close() {
        client.close();
        broker.kill();
    }
}
