package io.claimguard.explorer;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointWebExtension;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.health.registry.ReactiveHealthContributorRegistry;

/**
 * Boot's web extension of the health endpoint, with one change: the names of the health groups ({@code liveness},
 * {@code readiness}) are shown only to whom the components are shown (an operator who logged in). Boot adds them to the
 * top-level answer for everyone, so that without a login {@code /actuator/health} said
 * {@code {"groups":["liveness","readiness"],"status":"UP"}}; now it says {@code {"status":"UP"}} (or
 * {@code {"status":"DOWN"}} with 503), and nothing else.
 */
final class StatusOnlyHealth extends HealthEndpointWebExtension {

    StatusOnlyHealth(HealthContributorRegistry registry, @Nullable ReactiveHealthContributorRegistry reactiveRegistry,
            HealthEndpointGroups groups, @Nullable Duration slowContributorLoggingThreshold) {
        super(registry, reactiveRegistry, groups, slowContributorLoggingThreshold);
    }

    @Override
    protected HealthDescriptor aggregateDescriptors(ApiVersion apiVersion, Map<String, HealthDescriptor> descriptors,
            StatusAggregator statusAggregator, boolean showComponents, @Nullable Set<String> groupNames) {
        return super.aggregateDescriptors(apiVersion, descriptors, statusAggregator, showComponents,
                showComponents ? groupNames : null);
    }
}
