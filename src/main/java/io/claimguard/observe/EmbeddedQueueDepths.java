package io.claimguard.observe;

import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Queue depths on the embedded broker, read in-process: no connection, no message touched. */
@Component
public class EmbeddedQueueDepths {

    private final ObjectProvider<EmbeddedActiveMQ> embeddedBroker;

    public EmbeddedQueueDepths(ObjectProvider<EmbeddedActiveMQ> embeddedBroker) {
        this.embeddedBroker = embeddedBroker;
    }

    /** Whether an embedded broker runs; with an external one, that broker reports its own depths. */
    boolean available() {
        EmbeddedActiveMQ broker = embeddedBroker.getIfAvailable();
        return broker != null && broker.getActiveMQServer() != null;
    }

    /** Messages on the queue (0 when it does not exist yet); only when {@link #available()}. */
    long depth(String name) {
        Queue queue = embeddedBroker.getObject().getActiveMQServer().locateQueue(SimpleString.of(name));
        return queue == null ? 0 : queue.getMessageCount();
    }
}
