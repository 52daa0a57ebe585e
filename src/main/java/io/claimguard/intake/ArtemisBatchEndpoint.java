package io.claimguard.intake;

import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.support.DefaultEndpoint;

/**
 * An Artemis queue consumed in batches: each exchange's body is the list of {@link BatchMessage}s of one transacted
 * session, which commits when the exchange completes and rolls back when it fails. Written here because no library
 * does it: Spring's listener container and camel-jms take one message per transaction, Camel 4 dropped the
 * {@code sjms-batch} component, and an aggregator would acknowledge messages before their audit rows are committed.
 * It speaks the Artemis core protocol (through the JMS connection factory's locator and credentials) so that a
 * message the JMS client cannot even decode still reaches the route.
 */
final class ArtemisBatchEndpoint extends DefaultEndpoint {

    private final ServerLocator locator;
    private final String user;
    private final String password;
    private final BatchSettings settings;

    ArtemisBatchEndpoint(CamelContext camelContext, ServerLocator locator, String user, String password,
            BatchSettings settings) {
        super("artemis-batch://" + settings.queue(), null);
        setCamelContext(camelContext);
        this.locator = locator;
        this.user = user;
        this.password = password;
        this.settings = settings;
    }

    @Override
    public Consumer createConsumer(Processor processor) {
        return new ArtemisBatchConsumer(this, processor);
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException("the Artemis batch endpoint only consumes; send with the jms component");
    }

    BatchSession openSession() throws Exception {
        return BatchSession.open(locator, user, password, settings);
    }

    BatchSettings settings() {
        return settings;
    }
}
