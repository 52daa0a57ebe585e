package io.claimguard.intake;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says, at most once a period, that Kafka cannot be reached, from Camel's health checks of the Kafka routes (the Kafka
 * consumer's own, and the route controller's while it starts them again); and once that it can be again. The Kafka
 * clients' own warnings, one per connection attempt and client, are not logged (application.yml).
 */
final class KafkaReachability {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaReachability.class);

    private final String bootstrapServers;
    private boolean unreachable;

    KafkaReachability(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    void check(CamelContext context) {
        List<String> down = HealthCheckHelper.invokeReadiness(context).stream()
                .filter(result -> result.getState() == HealthCheck.State.DOWN)
                .filter(result -> result.getCheck().getId().contains("kafka")
                        || result.getCheck().getId().equals("route-controller"))
                .map(result -> result.getCheck().getId() + ": " + result.getMessage()
                        .or(() -> result.getError().map(Throwable::toString)).orElse("DOWN"))
                .toList();
        if (!down.isEmpty()) {
            unreachable = true;
            LOG.warn("Kafka at {} cannot be reached; readiness DOWN, the Kafka entry retries with back-off: {}",
                    bootstrapServers, down.stream().collect(Collectors.joining("; ")));
        } else if (unreachable) {
            unreachable = false;
            LOG.info("Kafka at {} is reachable again", bootstrapServers);
        }
    }
}
