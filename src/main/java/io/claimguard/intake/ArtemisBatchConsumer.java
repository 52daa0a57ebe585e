package io.claimguard.intake;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code consumers} threads, each with its own {@link BatchSession}: receive a batch, hand it to the route, commit
 * when the route completed it, roll back when it failed. A session lost with the broker is opened again after
 * {@code reconnectDelay}, for as long as the consumer runs. Stopping lets every batch in flight finish.
 */
final class ArtemisBatchConsumer extends DefaultConsumer {

    /** The exchange property holding the batch's session, for the route's sends. */
    static final String SESSION = "claimguardBatchSession";

    private static final Logger LOG = LoggerFactory.getLogger(ArtemisBatchConsumer.class);
    private static final long STOP_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(60);

    private final ArtemisBatchEndpoint endpoint;
    private final BatchSettings settings;
    private volatile boolean running;
    private volatile CountDownLatch stopped = new CountDownLatch(0);
    private ExecutorService workers;

    ArtemisBatchConsumer(ArtemisBatchEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.endpoint = endpoint;
        this.settings = endpoint.settings();
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        running = true;
        stopped = new CountDownLatch(1);
        workers = getEndpoint().getCamelContext().getExecutorServiceManager()
                .newFixedThreadPool(this, "jms-intake", settings.consumers());
        for (int i = 0; i < settings.consumers(); i++) {
            workers.execute(this::consumeUntilStopped);
        }
    }

    @Override
    protected void doStop() throws Exception {
        running = false;
        stopped.countDown();
        if (workers != null) {
            getEndpoint().getCamelContext().getExecutorServiceManager().shutdownGraceful(workers, STOP_TIMEOUT_MILLIS);
            workers = null;
        }
        super.doStop();
    }

    private void consumeUntilStopped() {
        boolean lost = false;
        while (running) {
            try (BatchSession session = endpoint.openSession()) {
                if (lost) {
                    LOG.info("JMS intake reconnected to the broker (queue {})", settings.queue());
                    lost = false;
                }
                while (running) {
                    List<BatchMessage> batch = session.receive(settings.batchSize(), settings.batchTimeout());
                    if (!batch.isEmpty()) {
                        process(session, batch);
                    }
                }
            } catch (Exception | Error e) {
                if (e instanceof Error) {
                    LOG.error("JMS intake session failed; opening it again", e);
                }
                if (running) {
                    // one warning per loss, not one per attempt while the broker stays away
                    if (!lost) {
                        LOG.warn("JMS intake lost its session to the broker (queue {}): {}; opening it again every {}",
                                settings.queue(), e.toString(), settings.reconnectDelay());
                    }
                    lost = true;
                    awaitStop(settings.reconnectDelay().toMillis());
                }
            }
        }
    }

    /** Hands the batch to the route; commits it if the route completed it, else rolls it back. */
    private void process(BatchSession session, List<BatchMessage> batch) throws Exception {
        Exchange exchange = createExchange(false);
        try {
            exchange.getIn().setBody(batch);
            exchange.setProperty(SESSION, session);
            try {
                getProcessor().process(exchange);
            } catch (Exception e) {
                exchange.setException(e);
            }
            if (exchange.getException() == null) {
                session.commit();
            } else {
                session.rollback();
                getExceptionHandler().handleException("a batch of " + batch.size() + " messages rolled back; the broker"
                        + " delivers them again", exchange, exchange.getException());
            }
        } finally {
            releaseExchange(exchange, false);
        }
    }

    private void awaitStop(long millis) {
        try {
            stopped.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
