package io.claimguard.observe;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.NamedNode;
import org.apache.camel.Route;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.spi.RoutePolicyFactory;
import org.apache.camel.support.RoutePolicySupport;
import org.springframework.stereotype.Component;

/**
 * Camel's route metrics as Micrometer timers ({@code claimguard.camel.route}: exchanges, time, failures per
 * route). camel-micrometer is not published for this Camel version, so this small policy stands in for it;
 * camel-spring-boot adds every RoutePolicyFactory bean to the context.
 */
@Component
public class RouteMetricsPolicyFactory implements RoutePolicyFactory {

    private static final String STARTED = "claimguardRouteStarted.";

    private final MeterRegistry registry;

    public RouteMetricsPolicyFactory(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public RoutePolicy createRoutePolicy(CamelContext camelContext, String routeId, NamedNode route) {
        return new RoutePolicySupport() {
            @Override
            public void onExchangeBegin(Route route, Exchange exchange) {
                exchange.setProperty(STARTED + routeId, System.nanoTime());
            }

            @Override
            public void onExchangeDone(Route route, Exchange exchange) {
                Long started = exchange.getProperty(STARTED + routeId, Long.class);
                if (started == null) {
                    return;
                }
                Timer.builder("claimguard.camel.route")
                        .description("Exchanges completed by each Camel route, and the time they took")
                        .tags("route", routeId, "failed", Boolean.toString(exchange.isFailed()))
                        .register(registry)
                        .record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
        };
    }
}
