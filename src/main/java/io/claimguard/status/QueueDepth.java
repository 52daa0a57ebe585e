package io.claimguard.status;

/**
 * The messages on one of the service's queues.
 *
 * @param role {@code input}, {@code output} or {@code dead_letter}
 * @param depth messages on the queue, those being delivered included; 0 when the queue does not exist yet
 */
public record QueueDepth(String role, String name, long depth) {

    public static final String INPUT = "input";
    public static final String OUTPUT = "output";
    public static final String DEAD_LETTER = "dead_letter";
}
