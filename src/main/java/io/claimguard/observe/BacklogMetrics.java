package io.claimguard.observe;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.status.Inbox;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.springframework.stereotype.Component;

/**
 * The backlog where it can be known cheaply: files waiting in the inbox (counted when scraped), and, with the
 * embedded broker, the depth of the input, output and dead-letter queues. An external broker reports its own depths.
 */
@Component
public class BacklogMetrics implements MeterBinder {

    private final ClaimGuardProperties properties;
    private final EmbeddedQueueDepths queueDepths;

    public BacklogMetrics(ClaimGuardProperties properties, EmbeddedQueueDepths queueDepths) {
        this.properties = properties;
        this.queueDepths = queueDepths;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("claimguard.inbox.files", this, BacklogMetrics::inboxFiles)
                .description("*.json files waiting in the inbox")
                .register(registry);
        for (String queue : new String[] {properties.jms().inputQueue(), properties.jms().outputQueue(),
                properties.jms().deadLetterQueue()}) {
            Gauge.builder("claimguard.queue.depth", this, metrics -> metrics.queueDepth(queue))
                    .description("Messages on the embedded broker's queue (NaN with an external broker)")
                    .tag("queue", queue)
                    .register(registry);
        }
    }

    private double inboxFiles() {
        Path inbox = properties.file().inbox();
        try {
            return Inbox.waitingFiles(inbox);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the inbox " + inbox, e);
        }
    }

    private double queueDepth(String name) {
        return queueDepths.available() ? queueDepths.depth(name) : Double.NaN;
    }
}
