package io.claimguard.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A plain Kafka client for tests and harnesses: produces inputs as a producer service would and reads what
 * ClaimGuard produced, from the beginning of a topic, without a consumer group of its own.
 */
public final class KafkaClient implements AutoCloseable {

    /** Records up to this size can be produced: bigger than ClaimGuard's default input limit, for the too-large case. */
    public static final int MAX_RECORD_BYTES = 2 * 1_048_576 + 65_536;

    private final String bootstrapServers;
    private final KafkaProducer<byte[], byte[]> producer;

    public KafkaClient(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, MAX_RECORD_BYTES);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        producer = new KafkaProducer<>(properties);
    }

    /** Produces one record (value null for a tombstone) and waits until the broker has it. */
    public RecordMetadata produce(String topic, String key, byte[] value) {
        return produce(topic, key, value, Map.of());
    }

    /** Produces one record with these headers (their values as UTF-8) and waits until the broker has it. */
    public RecordMetadata produce(String topic, String key, byte[] value, Map<String, String> headers) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, key == null ? null : utf8(key), value);
        headers.forEach((name, headerValue) -> record.headers().add(name, utf8(headerValue)));
        try {
            return producer.send(record).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot produce to " + topic, e);
        }
    }

    /** Hands a record to the producer without waiting for the broker (a benchmark's steady rate). */
    public void produceWithoutWaiting(String topic, String key, byte[] value) {
        producer.send(new ProducerRecord<>(topic, utf8(key), value));
    }

    /** Produces the values, keyed by their index, and waits until the broker has them all. */
    public void produceAll(String topic, List<byte[]> values) {
        List<Map.Entry<String, byte[]>> keyed = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            keyed.add(Map.entry(Integer.toString(i), values.get(i)));
        }
        produceKeyed(topic, keyed);
    }

    /**
     * Produces each value under its key, all at once, and waits until the broker has them all; returns where each
     * one went, in their order.
     */
    public List<RecordMetadata> produceKeyed(String topic, List<Map.Entry<String, byte[]>> keyedValues) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (Map.Entry<String, byte[]> record : keyedValues) {
            sent.add(producer.send(new ProducerRecord<>(topic, utf8(record.getKey()), record.getValue())));
        }
        List<RecordMetadata> written = new ArrayList<>();
        for (Future<RecordMetadata> each : sent) {
            try {
                written.add(each.get(120, TimeUnit.SECONDS));
            } catch (Exception e) {
                throw new IllegalStateException("cannot produce to " + topic, e);
            }
        }
        return written;
    }

    /** Every record of every partition of the topic, read from the beginning until {@code until} holds or time is up. */
    public List<ConsumerRecord<byte[], byte[]>> readFromBeginning(String topic, Duration patience,
            Predicate<List<ConsumerRecord<byte[], byte[]>>> until) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + patience.toNanos();
            while (!until.test(records) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** A consumer of byte arrays without a group, for {@code assign}: it commits nothing. */
    public static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, MAX_RECORD_BYTES);
        return new KafkaConsumer<>(properties);
    }

    /** The offsets the consumer group has committed on the topic, by partition (absent: none yet). */
    public Map<TopicPartition, OffsetAndMetadata> committedOffsets(String groupId) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            return admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets of group " + groupId, e);
        }
    }

    /** The offset the next record of each of the topic's partitions will get, by partition. */
    public Map<TopicPartition, Long> endOffsets(String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                    .forEach(partition -> latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest()));
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS)
                    .forEach((partition, info) -> ends.put(partition, info.offset()));
            return ends;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the end offsets of " + topic, e);
        }
    }

    /** A record header's value as text; null when the record has no such header. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    public static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
