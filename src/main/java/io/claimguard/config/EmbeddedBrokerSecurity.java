package io.claimguard.config;

import io.claimguard.broker.BrokerPermissions;
import io.claimguard.broker.BrokerPermissions.Permission;
import io.claimguard.broker.BrokerRole;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.activemq.artemis.core.config.impl.SecurityConfiguration;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.InVMLoginModule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.artemis.autoconfigure.ArtemisConfigurationCustomizer;
import org.springframework.boot.artemis.autoconfigure.ArtemisMode;
import org.springframework.boot.artemis.autoconfigure.ArtemisProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;

/**
 * The embedded broker requires a login on every protocol and gives each login only what its role needs
 * ({@link BrokerPermissions}). Spring Boot starts its embedded Artemis with security off; here security is switched on,
 * with Artemis' own JAAS security manager over an in-memory user list ({@link InVMLoginModule}: ClaimGuard's logins,
 * each with its role), and no login may create an address or a queue it was not given. ClaimGuard's own in-process
 * connections log in as the {@link BrokerRole#SERVICE} login, which Boot does not pass to an embedded broker's
 * connection factory.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "spring.artemis.embedded.enabled", matchIfMissing = true)
public class EmbeddedBrokerSecurity {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBrokerSecurity.class);
    /** Artemis' match of every address, the least specific: used where no other security or address setting matches. */
    private static final String EVERY_ADDRESS = "#";

    @Bean
    EmbeddedBrokerLogins embeddedBrokerLogins(ClaimGuardProperties properties, ArtemisProperties artemis) {
        EmbeddedBrokerLogins logins = EmbeddedBrokerLogins.resolve(artemis.getUser(), artemis.getPassword(),
                properties.broker(), System.out);
        LOG.info("Embedded broker: a login is required on every protocol; logins {}: {}", logins.origin(),
                logins.users().describe());
        return logins;
    }

    /**
     * Security on, each address's permissions by role ({@code #}, every other address, grants nothing to anyone), and no
     * address or queue made on demand: a send to or a consumer on an address that does not exist is refused, whoever
     * asks.
     */
    @Bean
    ArtemisConfigurationCustomizer brokerSecurity(ClaimGuardProperties properties) {
        ClaimGuardProperties.Jms jms = properties.jms();
        return configuration -> {
            configuration.setSecurityEnabled(true);
            Map<String, Map<BrokerRole, Set<Permission>>> grants = BrokerPermissions.grants(jms.inputQueue(),
                    jms.outputQueue(), jms.deadLetterQueue(), configuration.getManagementAddress().toString());
            grants.forEach((match, roles) -> configuration.putSecurityRoles(match, artemisRoles(roles)));
            AddressSettings everyAddress = configuration.getAddressSettings()
                    .computeIfAbsent(EVERY_ADDRESS, match -> new AddressSettings());
            everyAddress.setAutoCreateAddresses(false).setAutoCreateQueues(false)
                    .setAutoCreateDeadLetterResources(false).setAutoCreateExpiryResources(false);
        };
    }

    /**
     * Gives the embedded broker its security manager before it starts, and ClaimGuard's own JMS connection factory its
     * login (only with {@code spring.artemis.mode=embedded}: with an external broker it keeps Boot's
     * {@code spring.artemis.user}).
     */
    @Bean
    static BeanPostProcessor embeddedBrokerLogin(ObjectProvider<EmbeddedBrokerLogins> logins,
            ObjectProvider<ArtemisProperties> artemis) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof EmbeddedActiveMQ broker) {
                    broker.setSecurityManager(securityManager(logins.getObject()));
                } else if (artemisFactory(bean) instanceof ActiveMQConnectionFactory factory && inProcess(artemis.getObject())) {
                    EmbeddedBrokerLogins own = logins.getObject();
                    factory.setUser(own.service().user());
                    factory.setPassword(own.service().password());
                }
                return bean;
            }
        };
    }

    /** Artemis' JAAS security manager over ClaimGuard's logins, each with its role's Artemis role; no default user. */
    static ActiveMQJAASSecurityManager securityManager(EmbeddedBrokerLogins logins) {
        SecurityConfiguration users = new SecurityConfiguration();
        logins.users().logins().forEach((role, login) -> {
            users.addUser(login.user(), login.password());
            users.addRole(login.user(), role.artemisRole());
        });
        return new ActiveMQJAASSecurityManager(InVMLoginModule.class.getName(), users);
    }

    private static boolean inProcess(ArtemisProperties artemis) {
        return artemis.getMode() == ArtemisMode.EMBEDDED || (artemis.getMode() == null && artemis.getEmbedded().isEnabled());
    }

    private static Object artemisFactory(Object bean) {
        return bean instanceof CachingConnectionFactory caching ? caching.getTargetConnectionFactory() : bean;
    }

    private static Set<Role> artemisRoles(Map<BrokerRole, Set<Permission>> grants) {
        Set<Role> roles = new HashSet<>();
        grants.forEach((role, permissions) -> roles.add(new Role(role.artemisRole(),
                permissions.contains(Permission.SEND), permissions.contains(Permission.CONSUME),
                false, false,
                permissions.contains(Permission.CREATE_NON_DURABLE_QUEUE),
                permissions.contains(Permission.DELETE_NON_DURABLE_QUEUE),
                permissions.contains(Permission.MANAGE), permissions.contains(Permission.BROWSE),
                permissions.contains(Permission.CREATE_ADDRESS), permissions.contains(Permission.DELETE_ADDRESS),
                false, false)));
        return roles;
    }
}
