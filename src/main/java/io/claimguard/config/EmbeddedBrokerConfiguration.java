package io.claimguard.config;

import java.time.Duration;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.springframework.boot.artemis.autoconfigure.ArtemisConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * The embedded broker's network side and redelivery. Producers on other processes reach it at
 * {@code claimguard.broker.acceptor-url} (CORE and AMQP 1.0, with a login: {@link EmbeddedBrokerSecurity}); a message on the input queue that keeps rolling back is redelivered
 * with back-off, then moved to {@code claimguard.jms.dead-letter-queue}. An external broker needs the same
 * address settings (see docs/operating.md, "Broker logins").
 */
@Configuration(proxyBeanMethods = false)
public class EmbeddedBrokerConfiguration {

    /** The protocols the network acceptor speaks unless its URL names others. */
    static final String DEFAULT_PROTOCOLS = "CORE,AMQP";
    /** The SASL mechanisms an AMQP client may use unless the URL names others: a user name and password, never ANONYMOUS. */
    static final String DEFAULT_SASL_MECHANISMS = "PLAIN";

    @Bean
    ArtemisConfigurationCustomizer networkAcceptor(ClaimGuardProperties properties) {
        String url = properties.broker().acceptorUrl();
        return configuration -> {
            if (url != null && !url.isBlank()) {
                try {
                    configuration.addAcceptorConfiguration("claimguard-tcp", withDefaults(url.strip()));
                } catch (Exception e) {
                    throw new IllegalArgumentException("claimguard.broker.acceptor-url is not a valid acceptor URL: " + url, e);
                }
            }
        };
    }

    /**
     * The acceptor URL with {@code protocols=CORE,AMQP} and {@code saslMechanisms=PLAIN} unless it names its own: Artemis'
     * acceptor would otherwise speak every protocol it finds on the class path, and offer AMQP clients the SASL
     * mechanism ANONYMOUS (which the broker's security then refuses only once the connection opens).
     */
    static String withDefaults(String url) {
        String withProtocols = withOption(url, "protocols", DEFAULT_PROTOCOLS);
        return withOption(withProtocols, "saslMechanisms", DEFAULT_SASL_MECHANISMS);
    }

    private static String withOption(String url, String name, String value) {
        if (url.toLowerCase(java.util.Locale.ROOT).matches(".*[?&;]" + name.toLowerCase(java.util.Locale.ROOT) + "=.*")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + name + "=" + value;
    }

    /**
     * Messages the embedded broker keeps in memory before it pages to its journal directory: a quarter of the heap
     * unless {@code claimguard.broker.global-max-size} says otherwise. Artemis' own default, half the heap, leaves
     * too little for 64 consumers under a small heap (a 100,000-message backlog ran out of memory at -Xmx256m); an
     * eighth made a 20,000-message backlog page at -Xmx512m, which cost a sixth of the JMS throughput.
     */
    @Bean
    ArtemisConfigurationCustomizer brokerMemory(ClaimGuardProperties properties) {
        DataSize configured = properties.broker().globalMaxSize();
        long bytes = configured != null ? configured.toBytes() : Runtime.getRuntime().maxMemory() / 4;
        return configuration -> configuration.setGlobalMaxSize(bytes);
    }

    /**
     * Results nobody consumes expire after {@code claimguard.broker.output-retention} and are dropped (no expiry
     * address: the audit table holds every result already), so that an output queue without a consumer, which file
     * results reach too, cannot fill the journal's disk.
     */
    @Bean
    ArtemisConfigurationCustomizer outputQueueRetention(ClaimGuardProperties properties) {
        Duration retention = properties.broker().outputRetention();
        String outputQueue = properties.jms().outputQueue();
        return configuration -> {
            if (retention != null && !retention.isZero()) {
                configuration.addAddressSetting(outputQueue, new AddressSettings().setExpiryDelay(retention.toMillis()));
            }
        };
    }

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
