package io.claimguard.intake;

import java.time.Clock;
import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.support.DefaultEndpoint;

/**
 * The inbox as a Camel endpoint: each exchange is one entry of the inbox named like an input ({@link InboxConsumer}),
 * which the route takes through the {@link InboxDirectory}. Written here because Camel's file component cannot be told
 * to list names by their bytes or not to follow links ({@link InboxDirectory} says where it falls short).
 */
final class InboxEndpoint extends DefaultEndpoint {

    private final InboxDirectory directory;
    private final InboxSettings settings;

    InboxEndpoint(CamelContext camelContext, InboxDirectory directory, InboxSettings settings) {
        super("claimguard-inbox://" + directory.path().toAbsolutePath(), null);
        setCamelContext(camelContext);
        this.directory = directory;
        this.settings = settings;
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        InboxConsumer consumer = new InboxConsumer(this, processor, settings, Clock.systemUTC());
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException("the inbox is only read; results go to the outbox");
    }

    InboxDirectory directory() {
        return directory;
    }
}
