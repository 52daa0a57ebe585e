package io.claimguard.observe;

import io.claimguard.config.ClaimGuardProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Every metric carries {@code instance_id}, so that several instances' figures can be told apart and summed. */
@Configuration(proxyBeanMethods = false)
public class InstanceTag {

    @Bean
    MeterRegistryCustomizer<MeterRegistry> instanceIdOnEveryMetric(ClaimGuardProperties properties) {
        String instanceId = properties.instanceName();
        return registry -> registry.config().commonTags("instance_id", instanceId);
    }
}
