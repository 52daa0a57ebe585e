package io.claimguard.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** Where a tool sends inputs, and how long it waits to learn what became of them. */
public final class InputQueueOptions {

    @Option(names = "--queue", paramLabel = "NAME", defaultValue = "${env:CLAIMGUARD_JMS_INPUT_QUEUE:-verifier.results}",
            description = "the service's input queue (default: $CLAIMGUARD_JMS_INPUT_QUEUE or ${DEFAULT-VALUE})")
    String queue;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "15s", converter = DurationConverter.class,
            description = "how long to wait for every input's audit or dead-letter row, e.g. 15s, 2m, 500ms"
                    + " (default: ${DEFAULT-VALUE})")
    Duration timeout;

    public String queue() {
        return queue;
    }

    public Duration timeout() {
        return timeout;
    }
}
