package io.claimguard.intake;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.ResultProperties;
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
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The Kafka entry, in batches, at least once: each consumer thread polls up to {@code claimguard.kafka.batch-size}
 * records, runs them through the pipeline at the same time (their audit rows share group commits), produces their
 * results to the output topic and the rejected or failed records, as they came, to the dead-letter topic, waits until
 * Kafka has acknowledged every one of those, and only then commits the batch's offsets, on the consumer thread. A
 * failure of any input makes the consumer read the batch again from the last committed offset; what was audited
 * already comes back as a duplicate that makes no new row (its result is produced again).
 */
@Component
@ConditionalOnProperty(name = "claimguard.kafka.enabled", havingValue = "true")
public class KafkaIntakeRoute extends EndpointRouteBuilder {

    /** The record header that names why a record is on the dead-letter topic (as the JMS property does). */
    public static final String REASON_HEADER = JmsIntakeRoute.REASON_PROPERTY;

    /** The record an input exchange came from, for its dead-letter copy. */
    private static final String RECORD = "claimguardKafkaRecord";

    private final ClaimGuardProperties.Kafka kafka;
    private final int maxRecordBytes;
    private final PipelineObserver observer;

    public KafkaIntakeRoute(ClaimGuardProperties properties, PipelineObserver observer) {
        this.kafka = properties.kafka();
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
                        // the exact bytes: decoding is the pipeline's, as for every entry
                        .keyDeserializer(ByteArrayDeserializer.class.getName())
                        .valueDeserializer(ByteArrayDeserializer.class.getName()))
                .routeId("kafka-intake")
                .process(batch -> observer.batchTaken(ReceivedInput.Source.KAFKA, records(batch).size()))
                // synchronous: the offsets must be committed on the consumer thread, which the Kafka client requires
                .split(body(), new BatchOfInputs()).parallelProcessing().synchronous().executorService(inputs)
                    .process(KafkaIntakeRoute::capture)
                    .to(Pipeline.VERIFY)
                .end()
                .process(this::resultsAndDeadLetters)
                // every record acknowledged by Kafka before the exchange goes on (a synchronous send of the list)
                .to(kafka(kafka.outputTopic())
                        .brokers(kafka.bootstrapServers())
                        .keySerializer(ByteArraySerializer.class.getName())
                        .valueSerializer(ByteArraySerializer.class.getName())
                        .maxRequestSize(maxRecordBytes)
                        // the route waits for the whole list: lingering would only delay the acknowledgements
                        .lingerMs(0)
                        // each record its own headers (result properties, dead-letter reason), not the batch's
                        .batchWithIndividualHeaders(true))
                .process(KafkaIntakeRoute::commitOffsets)
                .process(batch -> BatchOfInputs.inputs(batch).forEach(observer::completed));
    }

    private static void capture(Exchange exchange) {
        Message record = exchange.getIn().getBody(Exchange.class).getMessage();
        byte[] value = record.getBody(byte[].class);
        String sourceRef = record.getHeader(KafkaConstants.TOPIC) + "-" + record.getHeader(KafkaConstants.PARTITION)
                + "@" + record.getHeader(KafkaConstants.OFFSET);
        exchange.setProperty(RECORD, record);
        // a record without value (a tombstone) is an empty input, rejected like an empty file
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.KAFKA, sourceRef, OffsetDateTime.now(),
                value == null ? new byte[0] : value, null, record.getHeader(ReceivedInput.TRACEPARENT, String.class)));
        InputExchange.resultSentByIntake(exchange);
        // from here on the input lives in the exchange properties, and nothing of the record can leak onto the result
        exchange.setIn(new DefaultMessage(exchange));
    }

    /**
     * The body becomes the records to produce: each forwarded input's effective result, the bytes its signature
     * covers (keyed by request id, with the result properties as headers, the signature and its key id among them) and each rejected or failed input's record as it came, with the reason.
     */
    private void resultsAndDeadLetters(Exchange batch) {
        List<Message> outgoing = new ArrayList<>();
        for (Exchange input : BatchOfInputs.inputs(batch)) {
            Message message = new DefaultMessage(batch);
            if (InputExchange.FORWARDED.matches(input)) {
                Map<String, Object> properties = ResultProperties.of(input);
                message.setBody(InputExchange.signedResult(input).bytes());
                message.setHeader(KafkaConstants.KEY, utf8(InputExchange.verification(input).requestId()));
                properties.forEach((name, value) -> message.setHeader(name, String.valueOf(value)));
            } else if (InputExchange.SET_ASIDE.matches(input)) {
                Message record = input.getProperty(RECORD, Message.class);
                message.setBody(record.getBody());
                message.setHeader(KafkaConstants.KEY, record.getHeader(KafkaConstants.KEY));
                message.setHeader(KafkaConstants.OVERRIDE_TOPIC, kafka.deadLetterTopic());
                message.setHeader(REASON_HEADER, InputExchange.deadLetter(input).describe());
            } else {
                throw new IllegalStateException("kafka input " + InputExchange.input(input).sourceRef()
                        + " left the pipeline neither forwarded nor set aside");
            }
            outgoing.add(message);
        }
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
