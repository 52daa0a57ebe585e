package io.claimguard.intake;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.RejectionReason;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.support.Backoff;
import io.claimguard.verify.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.kafka.consumer.DefaultKafkaManualCommit;
import org.apache.camel.support.DefaultMessage;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The Kafka entry, in batches, at least once: each consumer thread polls up to {@code claimguard.kafka.batch-size}
 * records, runs them through the pipeline at the same time (their audit rows share group commits), produces their
 * results to the output topic and the rejected or failed records, as they came, to the dead-letter topic, waits until
 * Kafka has acknowledged every one of those, and only then commits the batch's offsets, on the consumer thread. A
 * failure of any input makes the consumer read the batch again from the last committed offset; what was audited
 * already comes back as a duplicate that makes no new row (its result is produced again). Kafka keeps no delivery count,
 * so the route keeps one ({@link KafkaDeliveries}), written before a batch is processed: a batch read again goes one
 * record at a time, each waiting its back-off and committed on its own, and a record delivered more than
 * {@code max-delivery-attempts} times is set aside as {@code processing_failed} instead of processed. The routes start
 * under Camel's supervising route controller (application.yml), so that a Kafka that cannot be reached does not stop
 * the service; {@link KafkaReachability} says so once a minute.
 */
@Component
@ConditionalOnProperty(name = "claimguard.kafka.enabled", havingValue = "true")
public class KafkaIntakeRoute extends EndpointRouteBuilder {

    /** The record header that names why a record is on the dead-letter topic (as the JMS property does). */
    public static final String REASON_HEADER = JmsIntakeRoute.REASON_PROPERTY;

    private static final Logger LOG = LoggerFactory.getLogger(KafkaIntakeRoute.class);
    /** The record an input exchange came from, for its dead-letter copy. */
    private static final String RECORD = "claimguardKafkaRecord";
    /** On a record: how often it has been handed to processing without its offset being committed, this time included. */
    private static final String DELIVERIES = "claimguardKafkaDeliveries";
    /** On a batch: some partition's first record in it was handed out before, so its records go one at a time. */
    private static final String REDELIVERED = "claimguardKafkaRedelivered";
    /** On a record of a redelivered batch: how long it waits before it is processed, in milliseconds. */
    private static final String WAIT = "claimguardKafkaWait";
    private static final Duration REACHABILITY_PERIOD = Duration.ofMinutes(1);
    private static final String COUNT_DELIVERIES = "direct:kafka-intake-deliveries";
    private static final String BATCH = "direct:kafka-intake-batch";

    private final ClaimGuardProperties.Kafka kafka;
    private final int maxRecordBytes;
    private final PipelineObserver observer;
    private final KafkaDeliveries deliveries;
    private final Backoff redeliveryBackoff;
    private final KafkaReachability reachability;

    public KafkaIntakeRoute(ClaimGuardProperties properties, PipelineObserver observer, KafkaDeliveries deliveries) {
        this.kafka = properties.kafka();
        this.deliveries = deliveries;
        this.redeliveryBackoff = new Backoff(kafka.redeliveryDelay(), kafka.maxRedeliveryDelay());
        this.reachability = new KafkaReachability(kafka.bootstrapServers());
        // an input over the size limit still goes to the dead-letter topic whole, with room for the reason header
        this.maxRecordBytes = Math.max(1_048_576, 2 * properties.limits().maxBytes());
        this.observer = observer;
    }

    @Override
    public void configure() {
        // a failure goes back to the Kafka consumer, which reads the batch again from the last committed offset
        errorHandler(noErrorHandler());

        ExecutorService inputs = getContext().getExecutorServiceManager()
                .newFixedThreadPool(this, "kafka-intake-input", kafka.consumers() * kafka.batchSize());

        from(kafka(kafka.inputTopic())
                        .brokers(kafka.bootstrapServers())
                        .groupId(kafka.groupId())
                        .consumersCount(kafka.consumers())
                        .batching(true)
                        .maxPollRecords(kafka.batchSize())
                        .pollTimeoutMs(kafka.batchTimeout().toMillis())
                        .batchingIntervalMs((int) kafka.batchTimeout().toMillis())
                        // offsets move only by commitOffsets below; a failed batch is read again from the last one
                        .autoCommitEnable(false)
                        .allowManualCommit(true)
                        .breakOnFirstError(true)
                        // a new consumer group starts with the oldest record the topic keeps, not the next one
                        .autoOffsetReset("earliest")
                        // a killed instance's partitions move on after this, not after Kafka's default 45 s
                        .sessionTimeoutMs((int) kafka.sessionTimeout().toMillis())
                        .heartbeatIntervalMs((int) kafka.sessionTimeout().dividedBy(3).toMillis())
                        .reconnectBackoffMaxMs((int) kafka.reconnectBackoffMax().toMillis())
                        // the exact bytes: decoding is the pipeline's, as for every entry
                        .keyDeserializer(ByteArrayDeserializer.class.getName())
                        .valueDeserializer(ByteArrayDeserializer.class.getName()))
                .routeId("kafka-intake")
                .process(batch -> observer.batchTaken(ReceivedInput.Source.KAFKA, records(batch).size()))
                // counted before anything is processed, so that a delivery counts even if the process dies during it
                .to(COUNT_DELIVERIES)
                .choice()
                    .when(exchangeProperty(REDELIVERED))
                        // one record at a time, each committed on its own: the record that fails (or kills the
                        // process) is the only one counted again, and the records before it are done with
                        .split(body()).stopOnException()
                            .process(this::oneRecordBatch)
                            // not retried hot: a record handed out before waits, longer with each delivery
                            .delay(exchangeProperty(WAIT)).syncDelayed()
                            .to(BATCH)
                        .end().endChoice()
                    .otherwise()
                        .to(BATCH)
                .end();

        // one WARN a minute at most while Kafka cannot be reached, instead of the clients' one per attempt
        from(timer("kafka-reachability").delay(REACHABILITY_PERIOD.toMillis() / 4).period(REACHABILITY_PERIOD.toMillis()))
                .routeId("kafka-reachability")
                .process(exchange -> reachability.check(exchange.getContext()));

        from(COUNT_DELIVERIES)
                .routeId("kafka-intake-deliveries")
                // a database outage waits here, with back-off, as it does in the verify route
                .routeConfigurationId(RetryPolicy.ID)
                .process(this::countDeliveries);

        from(BATCH)
                .routeId("kafka-intake-batch")
                // synchronous: the offsets must be committed on the consumer thread, which the Kafka client requires
                .split(body(), new BatchOfInputs()).parallelProcessing().synchronous().executorService(inputs)
                    .process(this::capture)
                    .to(Pipeline.VERIFY)
                .end()
                .process(this::resultsAndDeadLetters)
                // every record acknowledged by Kafka before the exchange goes on (a synchronous send of the list)
                .to(kafka(kafka.outputTopic())
                        .brokers(kafka.bootstrapServers())
                        .keySerializer(ByteArraySerializer.class.getName())
                        .valueSerializer(ByteArraySerializer.class.getName())
                        .maxRequestSize(maxRecordBytes)
                        .reconnectBackoffMaxMs((int) kafka.reconnectBackoffMax().toMillis())
                        // the route waits for the whole list: lingering would only delay the acknowledgements
                        .lingerMs(0)
                        // each record its own headers (result properties, dead-letter reason), not the batch's
                        .batchWithIndividualHeaders(true))
                .process(KafkaIntakeRoute::commitOffsets)
                .process(batch -> BatchOfInputs.inputs(batch).forEach(observer::completed));
    }

    /**
     * Counts a delivery of the first record of each partition in the batch (where consumption resumes after a failure
     * or a crash). A batch whose first record of some partition was handed out before is redelivered: it is processed
     * one record at a time.
     */
    private void countDeliveries(Exchange batch) {
        Map<TopicPartition, Long> firstOffsets = new HashMap<>();
        Map<TopicPartition, Exchange> firstRecords = new HashMap<>();
        for (Exchange record : records(batch)) {
            TopicPartition partition = partitionOf(record.getMessage());
            if (firstRecords.putIfAbsent(partition, record) == null) {
                firstOffsets.put(partition, record.getMessage().getHeader(KafkaConstants.OFFSET, Long.class));
            }
        }
        Map<TopicPartition, Integer> counts = deliveries.delivering(firstOffsets);
        boolean redelivered = false;
        for (Map.Entry<TopicPartition, Exchange> first : firstRecords.entrySet()) {
            int count = counts.get(first.getKey());
            first.getValue().setProperty(DELIVERIES, count);
            redelivered |= count > 1;
        }
        batch.setProperty(REDELIVERED, redelivered);
    }

    /**
     * One record of a redelivered batch as a batch of its own, its delivery counted (the first of its partition was
     * counted with the batch): once the records before it are committed, it is the first of its partition.
     */
    private void oneRecordBatch(Exchange part) {
        Exchange record = part.getIn().getBody(Exchange.class);
        if (record.getProperty(DELIVERIES) == null) {
            Message message = record.getMessage();
            TopicPartition partition = partitionOf(message);
            record.setProperty(DELIVERIES, deliveries.delivering(
                    Map.of(partition, message.getHeader(KafkaConstants.OFFSET, Long.class))).get(partition));
        }
        int count = record.getProperty(DELIVERIES, Integer.class);
        part.setProperty(WAIT, count == 1 || count > kafka.maxDeliveryAttempts() ? 0L
                : redeliveryBackoff.after(count - 1).toMillis());
        part.getIn().setBody(List.of(record));
    }

    private static TopicPartition partitionOf(Message record) {
        return new TopicPartition(record.getHeader(KafkaConstants.TOPIC, String.class),
                record.getHeader(KafkaConstants.PARTITION, Integer.class));
    }

    /**
     * The record as the input. One handed to processing more often than {@code max-delivery-attempts} is not
     * processed again but set aside as {@code processing_failed}, its bytes as they came to the dead-letter topic.
     */
    private void capture(Exchange exchange) {
        Exchange delivered = exchange.getIn().getBody(Exchange.class);
        Message record = delivered.getMessage();
        int deliveries = delivered.getProperty(DELIVERIES, 1, Integer.class);
        byte[] value = record.getBody(byte[].class);
        String sourceRef = record.getHeader(KafkaConstants.TOPIC) + "-" + record.getHeader(KafkaConstants.PARTITION)
                + "@" + record.getHeader(KafkaConstants.OFFSET);
        exchange.setProperty(RECORD, record);
        // a record without value (a tombstone) is an empty input, rejected like an empty file
        BatchOfInputs.receive(exchange, new ReceivedInput(ReceivedInput.Source.KAFKA, sourceRef, OffsetDateTime.now(),
                value == null ? new byte[0] : value, null, record.getHeader(ReceivedInput.TRACEPARENT, String.class)));
        if (deliveries > kafka.maxDeliveryAttempts()) {
            String reason = "processing failed after " + kafka.maxDeliveryAttempts() + " attempts: delivered "
                    + deliveries + " times without its offset being committed (it failed, or the process ended while it"
                    + " was in hand, each time)";
            LOG.warn("kafka input {} set aside as processing_failed: {}", sourceRef, reason);
            InputExchange.fail(exchange, new DeadLetter(RejectionReason.PROCESSING_FAILED, reason));
        }
    }

    /**
     * The body becomes the records to produce: each forwarded input's effective result, the bytes its signature
     * covers (keyed by request id, with the result properties as headers, the signature and its key id among them) and each rejected or failed input's record as it came, with the reason.
     */
    private void resultsAndDeadLetters(Exchange batch) throws Exception {
        List<Message> outgoing = new ArrayList<>();
        BatchOfInputs.settle(batch, ReceivedInput.Source.KAFKA, input -> {
            Message message = new DefaultMessage(batch);
            message.setBody(InputExchange.signedResult(input).bytes());
            message.setHeader(KafkaConstants.KEY, utf8(InputExchange.verification(input).requestId()));
            ResultProperties.of(input).forEach((name, value) -> message.setHeader(name, String.valueOf(value)));
            outgoing.add(message);
        }, input -> {
            Message message = new DefaultMessage(batch);
            Message record = input.getProperty(RECORD, Message.class);
            message.setBody(record.getBody());
            message.setHeader(KafkaConstants.KEY, record.getHeader(KafkaConstants.KEY));
            message.setHeader(KafkaConstants.OVERRIDE_TOPIC, kafka.deadLetterTopic());
            message.setHeader(REASON_HEADER, InputExchange.deadLetter(input).describe());
            outgoing.add(message);
        });
        batch.getIn().setBody(outgoing);
    }

    /**
     * The offset after each partition's last record of the batch, all in one synchronous commit on the consumer
     * thread (one round trip to the group coordinator, where committing record by record took one per partition).
     */
    private static void commitOffsets(Exchange batch) {
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        DefaultKafkaManualCommit last = null;
        for (Exchange input : BatchOfInputs.inputs(batch)) {
            last = input.getProperty(RECORD, Message.class).getHeader(KafkaConstants.MANUAL_COMMIT,
                    DefaultKafkaManualCommit.class);
            next.merge(last.getPartition(), new OffsetAndMetadata(last.getRecordOffset() + 1),
                    (one, other) -> one.offset() >= other.offset() ? one : other);
        }
        if (last != null) {
            last.getCamelExchangePayload().consumer.commitSync(next, Duration.ofMillis(last.getCommitTimeout()));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Exchange> records(Exchange batch) {
        return batch.getIn().getBody(List.class);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
