package io.claimguard.config;

import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.springframework.boot.artemis.autoconfigure.ArtemisConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Redelivery for the embedded broker: a message on the input queue that keeps rolling back is redelivered
 * with back-off, then moved to {@code claimguard.jms.dead-letter-queue}. An external broker needs the same
 * address settings (see README).
 */
@Configuration(proxyBeanMethods = false)
public class EmbeddedBrokerConfiguration {

    @Bean
    ArtemisConfigurationCustomizer inputQueueRedelivery(ClaimGuardProperties properties) {
        ClaimGuardProperties.Jms jms = properties.jms();
        return configuration -> configuration.addAddressSetting(jms.inputQueue(), new AddressSettings()
                .setDeadLetterAddress(SimpleString.of(jms.deadLetterQueue()))
                .setMaxDeliveryAttempts(jms.maxDeliveryAttempts())
                .setRedeliveryDelay(jms.redeliveryDelay().toMillis())
                .setRedeliveryMultiplier(2.0)
                .setMaxRedeliveryDelay(jms.maxRedeliveryDelay().toMillis()));
    }
}
