package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Where the embedded broker's logins come from: the configuration, else the credentials file, else generated into it. */
class EmbeddedBrokerLoginsTest {

    @TempDir
    Path folder;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream console = new PrintStream(printed, true, StandardCharsets.UTF_8);

    @Test
    @DisplayName("Scenario: Configured logins replace the credentials file")
    void configuredLoginsReplaceTheFile() {
        Path file = folder.resolve("credentials.properties");
        EmbeddedBrokerLogins logins = EmbeddedBrokerLogins.resolve("cg", "cg-secret", broker(file, Map.of(
                "producer.user", "verifier", "producer.password", "p-secret",
                "operator.user", "ops", "operator.password", "o-secret")), console);

        assertThat(logins.origin()).isEqualTo("configured");
        assertThat(logins.service()).isEqualTo(new BrokerLogin("cg", "cg-secret"));
        assertThat(logins.users().login(BrokerRole.PRODUCER)).contains(new BrokerLogin("verifier", "p-secret"));
        assertThat(logins.users().login(BrokerRole.OPERATOR)).contains(new BrokerLogin("ops", "o-secret"));
        assertThat(logins.users().login(BrokerRole.CONSUMER)).as("a role without a login has nobody").isEmpty();
        assertThat(file).as("neither written nor read").doesNotExist();
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();

        // a login half given, or the others without ClaimGuard's own, stops the start and names the setting
        assertThatThrownBy(() -> EmbeddedBrokerLogins.resolve("cg", "cg-secret", broker(file, Map.of(
                "consumer.user", "reader")), console)).hasMessageContaining("claimguard.broker.users.consumer.password");
        assertThatThrownBy(() -> EmbeddedBrokerLogins.resolve(null, null, broker(file, Map.of(
                "producer.user", "verifier", "producer.password", "p")), console)).hasMessageContaining("spring.artemis.user");
        assertThatThrownBy(() -> EmbeddedBrokerLogins.resolve("cg", "x", broker(file, Map.of(
                "producer.user", "cg", "producer.password", "p")), console)).hasMessageContaining("cg is given twice");
        assertThat(file).doesNotExist();
    }

    @Test
    @DisplayName("Without configured logins, the first resolution generates the file and prints it; the next reads it")
    void generatedOnceThenRead() throws Exception {
        Path file = folder.resolve("data/artemis/credentials.properties");

        EmbeddedBrokerLogins first = EmbeddedBrokerLogins.resolve(null, "", broker(file, Map.of()), console);
        String shown = printed.toString(StandardCharsets.UTF_8);
        printed.reset();
        EmbeddedBrokerLogins second = EmbeddedBrokerLogins.resolve(null, null, broker(file, Map.of()), console);

        assertThat(first.origin()).startsWith("generated into ");
        assertThat(second.origin()).startsWith("read from ");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(second.users().logins()).isEqualTo(first.users().logins()).containsOnlyKeys(BrokerRole.values());
        first.users().logins().values().forEach(login -> assertThat(shown).contains(login.password()));
        assertThat(printed.toString(StandardCharsets.UTF_8)).as("printed the first time only").isEmpty();
    }

    @Test
    @DisplayName("A credentials file without ClaimGuard's own login stops the start")
    void fileWithoutTheServiceLogin() throws Exception {
        Path file = Files.writeString(folder.resolve("credentials.properties"), "producer.user=p\nproducer.password=x\n");

        assertThatThrownBy(() -> EmbeddedBrokerLogins.resolve(null, null, broker(file, Map.of()), console))
                .hasMessageContaining("service.user");
    }

    private static ClaimGuardProperties.Broker broker(Path file, Map<String, String> users) {
        Map<String, String> settings = new HashMap<>();
        settings.put("claimguard.broker.credentials-file", file.toString());
        users.forEach((name, value) -> settings.put("claimguard.broker.users." + name, value));
        return new Binder(new MapConfigurationPropertySource(settings)).bind("claimguard", ClaimGuardProperties.class)
                .get().broker();
    }
}
