package io.claimguard.intake;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The Kafka entry's delivery counts in PostgreSQL ({@code claimguard.kafka_delivery}, one row per partition): how often
 * the record at a partition's first uncommitted offset has been handed to processing. Counted in a transaction of its
 * own before the record is processed, so that a delivery counts also when the process dies during it; the count starts
 * again at 1 once the partition's first uncommitted offset has moved on.
 */
@Component
@ConditionalOnProperty(name = "claimguard.kafka.enabled", havingValue = "true")
public class KafkaDeliveries {

    private static final String COUNT = """
            INSERT INTO claimguard.kafka_delivery AS d
                (topic, "partition", record_offset, deliveries, first_delivery_at, last_delivery_at)
            SELECT f.topic, f.partition, f.record_offset, 1, now(), now()
            FROM unnest(?::text[], ?::integer[], ?::bigint[]) AS f(topic, partition, record_offset)
            ON CONFLICT (topic, "partition") DO UPDATE SET
                deliveries = CASE WHEN d.record_offset = EXCLUDED.record_offset THEN d.deliveries + 1 ELSE 1 END,
                first_delivery_at = CASE WHEN d.record_offset = EXCLUDED.record_offset
                    THEN d.first_delivery_at ELSE EXCLUDED.first_delivery_at END,
                record_offset = EXCLUDED.record_offset,
                last_delivery_at = EXCLUDED.last_delivery_at
            RETURNING topic, "partition", deliveries""";

    private final JdbcTemplate sql;

    public KafkaDeliveries(DataSource dataSource) {
        this.sql = new JdbcTemplate(dataSource);
    }

    /** The record at this offset of each partition is being handed to processing: each one's count, this one included. */
    public Map<TopicPartition, Integer> delivering(Map<TopicPartition, Long> firstOffsets) {
        // in one order, so that two consumers counting overlapping partitions (during a rebalance) cannot deadlock
        List<Map.Entry<TopicPartition, Long>> rows = firstOffsets.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(
                        java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition)))
                .toList();
        return sql.execute((java.sql.Connection connection) -> {
            Array topics = connection.createArrayOf("text", rows.stream().map(row -> row.getKey().topic()).toArray());
            Array partitions = connection.createArrayOf("integer", rows.stream().map(row -> row.getKey().partition()).toArray());
            Array offsets = connection.createArrayOf("bigint", rows.stream().map(Map.Entry::getValue).toArray());
            try (PreparedStatement statement = connection.prepareStatement(COUNT)) {
                statement.setArray(1, topics);
                statement.setArray(2, partitions);
                statement.setArray(3, offsets);
                Map<TopicPartition, Integer> counts = new HashMap<>();
                try (ResultSet counted = statement.executeQuery()) {
                    while (counted.next()) {
                        counts.put(new TopicPartition(counted.getString(1), counted.getInt(2)), counted.getInt(3));
                    }
                }
                return counts;
            }
        });
    }
}
