package io.claimguard.observe;

import io.claimguard.config.ClaimGuardProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The backlog where it can be known cheaply: files waiting in the inbox (counted when scraped), and, with the
 * embedded broker, the depth of the input, output and dead-letter queues. An external broker reports its own depths.
 */
@Component
public class BacklogMetrics implements MeterBinder {

    private final ClaimGuardProperties properties;
    private final ObjectProvider<EmbeddedActiveMQ> embeddedBroker;

    public BacklogMetrics(ClaimGuardProperties properties, ObjectProvider<EmbeddedActiveMQ> embeddedBroker) {
        this.properties = properties;
        this.embeddedBroker = embeddedBroker;
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
        int count = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(inbox, "*.json")) {
            for (Path file : files) {
                if (Files.isRegularFile(file)) {
                    count++;
                }
            }
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the inbox " + inbox, e);
        }
        return count;
    }

    private double queueDepth(String name) {
        EmbeddedActiveMQ broker = embeddedBroker.getIfAvailable();
        if (broker == null || broker.getActiveMQServer() == null) {
            return Double.NaN;
        }
        Queue queue = broker.getActiveMQServer().locateQueue(SimpleString.of(name));
        return queue == null ? 0 : queue.getMessageCount();
    }
}
