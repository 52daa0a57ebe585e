package io.claimguard.intake;

import java.time.Duration;

/**
 * How the JMS intake takes its messages.
 *
 * @param queue the input queue
 * @param consumers sessions taking batches at the same time
 * @param batchSize messages in one transaction at most
 * @param batchTimeout how long a batch waits to fill once its first message has come
 * @param consumerWindowBytes how much each session may hold ahead of processing
 * @param reconnectDelay the wait before a session lost with the broker is opened again
 */
record BatchSettings(String queue, int consumers, int batchSize, Duration batchTimeout, int consumerWindowBytes,
        Duration reconnectDelay) {

    BatchSettings {
        if (consumers < 1 || batchSize < 1) {
            throw new IllegalArgumentException("the JMS intake needs at least one consumer and a batch size of at least"
                    + " 1, got " + consumers + " consumers and batch size " + batchSize);
        }
    }
}
