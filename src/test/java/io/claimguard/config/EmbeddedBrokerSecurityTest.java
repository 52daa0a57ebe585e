package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The embedded broker's security settings, as the customizer writes them into Artemis' configuration. */
class EmbeddedBrokerSecurityTest {

    /** The role {@code artemis create} gives a broker's administrators, which deploy/artemis keeps on management. */
    private static final String ADMINISTRATORS = "amq";

    @Test
    @DisplayName("Scenario: deploy/artemis/broker.properties grants what the embedded broker grants")
    void deployedSecurityMatchesTheEmbeddedBroker() throws Exception {
        ConfigurationImpl embedded = embeddedConfiguration(Map.of());
        ConfigurationImpl deployed = new ConfigurationImpl();
        Properties properties = new Properties();
        try (Reader file = Files.newBufferedReader(Path.of("deploy/artemis/broker.properties"), StandardCharsets.UTF_8)) {
            properties.load(file);
        }
        deployed.parsePrefixedProperties(properties, null);
        assertThat(deployed.getStatus()).contains("\"errors\":[]");

        Map<String, Set<String>> embeddedGrants = describe(embedded.getSecurityRoles());
        Map<String, Set<String>> deployedGrants = describe(deployed.getSecurityRoles());
        assertThat(embeddedGrants).containsOnlyKeys("verifier.results", "verifier.effective", "verifier.results.DLQ",
                "activemq.management", "activemq.management.#");
        deployedGrants.values().forEach(roles -> roles.removeIf(role -> role.startsWith(ADMINISTRATORS + ":")));
        assertThat(deployedGrants).isEqualTo(embeddedGrants);
        assertThat(embeddedGrants.get("verifier.effective")).containsExactlyInAnyOrder(
                "claimguard-consumer: consume browse", "claimguard-service: send");
    }

    @Test
    @DisplayName("The embedded broker's security is on, and no address or queue is made on demand")
    void securityOnAndNothingMadeOnDemand() throws Exception {
        ConfigurationImpl configuration = embeddedConfiguration(Map.of("claimguard.jms.input-queue", "in.q",
                "claimguard.jms.output-queue", "out.q", "claimguard.jms.dead-letter-queue", "dead.q"));

        assertThat(configuration.isSecurityEnabled()).isTrue();
        assertThat(configuration.getSecurityRoles().keySet()).containsOnly("in.q", "out.q", "dead.q", "activemq.management",
                "activemq.management.#");
        AddressSettings every = configuration.getAddressSettings().get("#");
        assertThat(every.isAutoCreateAddresses()).isFalse();
        assertThat(every.isAutoCreateQueues()).isFalse();
        assertThat(every.getDeadLetterAddress().toString()).as("what Boot set there stays").isEqualTo("DLQ");
    }

    @Test
    @DisplayName("The acceptor speaks CORE and AMQP with SASL PLAIN only, unless its URL says otherwise")
    void acceptorDefaults() {
        assertThat(EmbeddedBrokerConfiguration.withDefaults("tcp://127.0.0.1:61616"))
                .isEqualTo("tcp://127.0.0.1:61616?protocols=CORE,AMQP&saslMechanisms=PLAIN");
        assertThat(EmbeddedBrokerConfiguration.withDefaults("tcp://0.0.0.0:61616?protocols=CORE"))
                .isEqualTo("tcp://0.0.0.0:61616?protocols=CORE&saslMechanisms=PLAIN");
        assertThat(EmbeddedBrokerConfiguration.withDefaults("tcp://h:1?sslEnabled=true;saslMechanisms=EXTERNAL"))
                .isEqualTo("tcp://h:1?sslEnabled=true;saslMechanisms=EXTERNAL&protocols=CORE,AMQP");
    }

    /** A configuration as Boot's embedded broker starts it (its catch-all address setting), with the customizer run. */
    private static ConfigurationImpl embeddedConfiguration(Map<String, String> settings) throws Exception {
        ClaimGuardProperties properties = new Binder(new MapConfigurationPropertySource(withDefaults(settings)))
                .bind("claimguard", ClaimGuardProperties.class).get();
        ConfigurationImpl configuration = new ConfigurationImpl();
        configuration.setSecurityEnabled(false);
        configuration.addAddressSetting("#", new AddressSettings()
                .setDeadLetterAddress(org.apache.activemq.artemis.api.core.SimpleString.of("DLQ")));
        new EmbeddedBrokerSecurity().brokerSecurity(properties).customize(configuration);
        return configuration;
    }

    private static Map<String, String> withDefaults(Map<String, String> settings) {
        Map<String, String> all = new TreeMap<>(Map.of("claimguard.jms.input-queue", "verifier.results",
                "claimguard.jms.output-queue", "verifier.effective", "claimguard.jms.dead-letter-queue", "verifier.results.DLQ"));
        all.putAll(settings);
        return all;
    }

    /** Each match's roles as {@code role: permission ...}, every permission Artemis has named by what it allows. */
    private static Map<String, Set<String>> describe(Map<String, Set<Role>> roles) {
        Map<String, Set<String>> described = new TreeMap<>();
        roles.forEach((match, set) -> {
            Set<String> names = new TreeSet<>();
            for (Role role : set) {
                StringBuilder line = new StringBuilder(role.getName()).append(':');
                append(line, role.isSend(), "send");
                append(line, role.isConsume(), "consume");
                append(line, role.isBrowse(), "browse");
                append(line, role.isManage(), "manage");
                append(line, role.isCreateDurableQueue(), "createDurableQueue");
                append(line, role.isDeleteDurableQueue(), "deleteDurableQueue");
                append(line, role.isCreateNonDurableQueue(), "createNonDurableQueue");
                append(line, role.isDeleteNonDurableQueue(), "deleteNonDurableQueue");
                append(line, role.isCreateAddress(), "createAddress");
                append(line, role.isDeleteAddress(), "deleteAddress");
                append(line, role.isView(), "view");
                append(line, role.isEdit(), "edit");
                names.add(line.toString());
            }
            described.put(match, names);
        });
        return described;
    }

    private static void append(StringBuilder line, boolean granted, String permission) {
        if (granted) {
            line.append(' ').append(permission);
        }
    }
}
