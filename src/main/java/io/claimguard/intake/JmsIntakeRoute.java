package io.claimguard.intake;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.support.LogValue;
import jakarta.jms.ConnectionFactory;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * The JMS entry, in batches: each session takes up to {@code claimguard.jms.batch-size} messages in one transaction.
 * Every message of a batch goes through the pipeline at the same time as the others, so that their audit rows are
 * committed together; then the batch's results and the dead-letter copies of its rejected or failed inputs are sent
 * in the batch's transaction, which commits once. A failure of any input rolls the whole batch back: the broker
 * delivers it again with back-off, and what was audited already comes back as a duplicate that makes no new row.
 * A message that is not a TextMessage or a BytesMessage, or whose text cannot be decoded, is rejected at its first
 * delivery like any other bad input.
 */
@Component
public class JmsIntakeRoute extends RouteBuilder {

    /** The JMS property that names why a message is on the dead-letter queue. */
    public static final String REASON_PROPERTY = "ClaimGuardDeadLetterReason";

    private static final Logger LOG = LoggerFactory.getLogger(JmsIntakeRoute.class);

    /** The message an input exchange came from, for its dead-letter copy. */
    private static final String MESSAGE = "claimguardBatchMessage";

    private final ActiveMQConnectionFactory connectionFactory;
    private final ClaimGuardProperties.Jms jms;
    private final PipelineObserver observer;

    public JmsIntakeRoute(ConnectionFactory connectionFactory, ClaimGuardProperties properties, PipelineObserver observer) {
        this.connectionFactory = artemis(connectionFactory);
        this.jms = properties.jms();
        this.observer = observer;
    }

    @Override
    public void configure() {
        // a failure goes back to the batch consumer, which rolls the batch back
        errorHandler(noErrorHandler());

        BatchSettings settings = new BatchSettings(jms.inputQueue(), jms.concurrentConsumers(), jms.batchSize(),
                jms.batchTimeout(), (int) jms.consumerWindowSize().toBytes(), jms.reconnectDelay());
        ExecutorService inputs = getContext().getExecutorServiceManager()
                .newFixedThreadPool(this, "jms-intake-input", settings.consumers() * settings.batchSize());

        from(new ArtemisBatchEndpoint(getContext(), connectionFactory.getServerLocator(), connectionFactory.getUser(),
                        connectionFactory.getPassword(), settings))
                .routeId("jms-intake")
                .process(exchange -> observer.batchTaken(ReceivedInput.Source.JMS, exchange.getIn().getBody(List.class).size()))
                .split(body(), new BatchOfInputs()).parallelProcessing().executorService(inputs)
                    .process(JmsIntakeRoute::capture)
                    .to(Pipeline.VERIFY)
                .end()
                .process(this::sendInBatchTransaction)
                .process(exchange -> BatchOfInputs.inputs(exchange).forEach(observer::completed));
    }

    private static void capture(Exchange exchange) {
        BatchMessage message = exchange.getIn().getBody(BatchMessage.class);
        exchange.setProperty(MESSAGE, message);
        ReceivedInput input = new ReceivedInput(ReceivedInput.Source.JMS, message.sourceRef(), message.receivedAt(),
                message.payload(), message.redrive().deadLetterId(), message.traceparent());
        if (message.redrive().problem() != null) {
            LOG.warn("jms input {}: {}; processed as any input, recording no re-drive", LogValue.of(input.sourceRef()),
                    LogValue.text(message.redrive().problem()));
        }
        BatchOfInputs.receive(exchange, input);
        if (message.rejection() != null) {
            LOG.warn("rejected jms input {} ({} bytes): {}", LogValue.of(input.sourceRef()), message.rawBody().length,
                    LogValue.text(message.rejection().describe()));
            InputExchange.reject(exchange, message.rejection());
        }
    }

    /**
     * The signed results to the output queue, the rejected and failed inputs as they came to the dead-letter queue (with
     * the reason as one more property), in the batch's transaction.
     */
    private void sendInBatchTransaction(Exchange batch) throws Exception {
        BatchSession session = batch.getProperty(ArtemisBatchConsumer.SESSION, BatchSession.class);
        BatchOfInputs.settle(batch, ReceivedInput.Source.JMS,
                input -> session.sendText(jms.outputQueue(), InputExchange.signedResult(input).text(),
                        ResultProperties.of(input)),
                input -> session.sendCopy(jms.deadLetterQueue(), input.getProperty(MESSAGE, BatchMessage.class),
                        REASON_PROPERTY, InputExchange.deadLetter(input).describe()));
    }

    private static ActiveMQConnectionFactory artemis(ConnectionFactory factory) {
        Object target = factory instanceof CachingConnectionFactory caching ? caching.getTargetConnectionFactory() : factory;
        if (target instanceof ActiveMQConnectionFactory artemis) {
            return artemis;
        }
        throw new IllegalStateException("the JMS intake needs an Artemis connection factory, got " + target);
    }
}
