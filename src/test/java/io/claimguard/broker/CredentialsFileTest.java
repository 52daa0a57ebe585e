package io.claimguard.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsFileTest {

    @TempDir
    Path folder;

    @Test
    @DisplayName("A written credentials file reads back the same logins, whatever characters they hold")
    void roundTrip() {
        BrokerUsers users = new BrokerUsers(Map.of(
                BrokerRole.SERVICE, new BrokerLogin("claim guard", " =:#!\\ pass\tword\n"),
                BrokerRole.OPERATOR, new BrokerLogin("ops", "ä€")));
        Path file = folder.resolve("credentials.properties");

        assertThat(CredentialsFile.create(file, users, Instant.EPOCH)).isTrue();

        assertThat(CredentialsFile.read(file).logins()).isEqualTo(users.logins());
        assertThat(CredentialsFile.looserThanOwnerOnly(file)).isNull();
    }

    @Test
    @DisplayName("Generated logins have a password of 32 random characters each, and distinct users")
    void generated() {
        BrokerUsers users = BrokerUsers.generate(new SecureRandom());

        assertThat(users.logins()).containsOnlyKeys(BrokerRole.values());
        assertThat(users.logins().values()).extracting(BrokerLogin::password).doesNotHaveDuplicates()
                .allSatisfy(password -> assertThat(password).hasSize(32).matches("[A-Za-z0-9_-]+"));
        assertThat(users.toString()).doesNotContain(users.login(BrokerRole.SERVICE).orElseThrow().password());
        assertThat(users.login(BrokerRole.PRODUCER).orElseThrow().toString()).contains("hidden");
    }

    @Test
    @DisplayName("A credentials file is never written over, and a loose one is named")
    void neverOverwrittenLooseNamed() throws Exception {
        Path file = Files.writeString(folder.resolve("credentials.properties"), "service.user=a\nservice.password=b\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> CredentialsFile.create(file, BrokerUsers.generate(new SecureRandom()), Instant.EPOCH))
                .hasMessageContaining("cannot write");
        assertThat(Files.readString(file)).startsWith("service.user=a");
        assertThat(CredentialsFile.looserThanOwnerOnly(file)).isEqualTo("rw-r--r--");
        try (var files = Files.list(folder)) {
            assertThat(files).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    @DisplayName("A malformed credentials file names the key")
    void malformed() {
        assertThatThrownBy(() -> CredentialsFile.parse(new StringReader("producer.user=p\n")))
                .hasMessageContaining("producer.password");
        assertThatThrownBy(() -> CredentialsFile.parse(new StringReader("producer.name=p\n")))
                .hasMessageContaining("[producer.name]");
        assertThatThrownBy(() -> CredentialsFile.parse(new StringReader(
                "service.user=x\nservice.password=1\nproducer.user=x\nproducer.password=2\n")))
                .hasMessageContaining("x is given twice");
    }
}
