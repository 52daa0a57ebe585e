package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
import io.claimguard.broker.CredentialsFile;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a tool finds the broker and its login from the service's settings (the environment given here). */
class BrokerOptionsTest {

    @TempDir
    Path folder;

    @AfterEach
    void processEnvironment() {
        BrokerOptions.environment = System.getenv();
    }

    @Test
    @DisplayName("The tools' broker is the service's: the acceptor in embedded mode, the broker URL in native mode")
    void brokerUrl() {
        assertThat(BrokerOptions.defaultUrl(Map.of())).isEqualTo("tcp://127.0.0.1:61616");
        assertThat(BrokerOptions.defaultUrl(Map.of("CLAIMGUARD_BROKER_ACCEPTOR_URL", "tcp://10.0.0.5:61617?protocols=CORE",
                "SPRING_ARTEMIS_BROKER_URL", "tcp://ignored:1"))).isEqualTo("tcp://10.0.0.5:61617");
        assertThat(BrokerOptions.defaultUrl(Map.of("SPRING_ARTEMIS_MODE", "Native",
                "SPRING_ARTEMIS_BROKER_URL", "tcp://artemis:61616", "CLAIMGUARD_BROKER_ACCEPTOR_URL", "tcp://x:1")))
                .isEqualTo("tcp://artemis:61616");
        assertThat(BrokerOptions.defaultUrl(Map.of("SPRING_ARTEMIS_MODE", "native"))).isEqualTo("tcp://localhost:61616");
    }

    @Test
    @DisplayName("A tool's login: --broker-user, else the role's configured login, else the credentials file, else SPRING_ARTEMIS_USER")
    void loginPrecedence() {
        Path file = folder.resolve("credentials.properties");
        CredentialsFile.create(file, new BrokerUsers(Map.of(BrokerRole.SERVICE, new BrokerLogin("cg", "s"),
                BrokerRole.PRODUCER, new BrokerLogin("file-producer", "fp"))), Instant.EPOCH);
        BrokerOptions.environment = Map.of("CLAIMGUARD_BROKER_CREDENTIALS_FILE", file.toString(),
                "CLAIMGUARD_BROKER_USERS_OPERATOR_USER", "env-operator", "CLAIMGUARD_BROKER_USERS_OPERATOR_PASSWORD", "eo",
                "SPRING_ARTEMIS_USER", "spring-user", "SPRING_ARTEMIS_PASSWORD", "su");
        BrokerOptions options = new BrokerOptions();

        assertThat(options.login(BrokerRole.OPERATOR)).extracting(BrokerOptions.Login::user).isEqualTo("env-operator");
        assertThat(options.login(BrokerRole.PRODUCER)).satisfies(login -> {
            assertThat(login.user()).isEqualTo("file-producer");
            assertThat(login.password()).isEqualTo("fp");
            assertThat(login.source()).isEqualTo("the producer login of " + file);
        });
        assertThat(options.login(BrokerRole.CONSUMER).user()).as("no consumer in the file").isEqualTo("spring-user");
        options.user = "given";
        options.password = "g";
        assertThat(options.login(BrokerRole.PRODUCER).source()).isEqualTo("--broker-user");

        BrokerOptions.environment = Map.of("CLAIMGUARD_BROKER_DATA_DIRECTORY", folder.resolve("nowhere").toString());
        BrokerOptions none = new BrokerOptions();
        assertThat(none.login(BrokerRole.PRODUCER).user()).isNull();
        assertThat(none.login(BrokerRole.PRODUCER).describe()).contains("anonymous", "no producer login in "
                + folder.resolve("nowhere").resolve("credentials.properties"));
    }
}
