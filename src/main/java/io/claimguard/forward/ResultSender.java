package io.claimguard.forward;

import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.support.GroupCommit;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.support.JmsUtils;
import org.springframework.stereotype.Component;

/**
 * Sends effective results to the output queue in groups: each caller hands in its result and waits; one sender
 * thread takes every result waiting (at most one per file thread) and sends them in one JMS transaction, then
 * releases each caller. So the broker writes its journal once per group, not once per result, and a caller returns
 * only once its result is committed on the queue. A failed send or commit fails every caller of the group: the
 * failure is about the broker, and each input is then retried (audited already, as a duplicate).
 *
 * <p>Hand-written on {@link GroupCommit} because neither camel-jms nor Spring JMS offers a send that many callers
 * share while each waits for the shared commit: an aggregator would complete the callers before the send.
 */
@Component
public class ResultSender implements DisposableBean {

    /** One result to send: the signed text and its properties (for consumers' selectors, and its signature). */
    record OutgoingResult(String body, Map<String, Object> properties) {
    }

    private final JmsTemplate jms;
    private final String outputQueue;
    private final GroupCommit<OutgoingResult, Boolean> groups;

    public ResultSender(ConnectionFactory connectionFactory, MeterRegistry registry,
            @Value("${claimguard.jms.output-queue}") String outputQueue,
            @Value("${claimguard.file.concurrency}") int fileThreads) {
        this.jms = new JmsTemplate(connectionFactory);
        this.jms.setSessionTransacted(true);
        this.outputQueue = outputQueue;
        DistributionSummary groupSizes = DistributionSummary.builder("claimguard.forward.batch.size")
                .description("Effective results sent to the output queue in one JMS transaction")
                .baseUnit("results")
                .register(registry);
        this.groups = new GroupCommit<>("forward", 1, Math.max(1, fileThreads), this::sendInOneTransaction,
                failure -> true, new GroupCommit.BatchListener() {
                    @Override
                    public void written(int size) {
                        groupSizes.record(size);
                    }

                    @Override
                    public void split(int size) {
                        // never: every failure fails the whole group
                    }
                });
    }

    /** Sends the exchange's signed effective result, with its properties; returns once it is committed. */
    public void send(Exchange exchange) throws Exception {
        groups.submit(new OutgoingResult(InputExchange.signedResult(exchange).text(), ResultProperties.of(exchange)));
    }

    private List<Boolean> sendInOneTransaction(List<OutgoingResult> results) {
        return jms.execute(session -> {
            Queue queue = session.createQueue(outputQueue);
            MessageProducer producer = session.createProducer(queue);
            try {
                for (OutgoingResult result : results) {
                    TextMessage message = session.createTextMessage(result.body());
                    for (Map.Entry<String, Object> property : result.properties().entrySet()) {
                        message.setObjectProperty(property.getKey(), property.getValue());
                    }
                    producer.send(message);
                }
                JmsUtils.commitIfNecessary(session);
                return Collections.nCopies(results.size(), Boolean.TRUE);
            } catch (JMSException | RuntimeException e) {
                JmsUtils.rollbackIfNecessary(session);
                throw e;
            } finally {
                JmsUtils.closeMessageProducer(producer);
            }
        }, false);
    }

    @Override
    public void destroy() throws InterruptedException {
        groups.close();
    }
}
