package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
import io.claimguard.broker.CredentialsFile;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The jar as it ships, started with no broker login configured: the first start generates one login per role into the
 * credentials file under the broker's data directory, readable by its owner only, and prints them once; a later start
 * reads the same file, prints no password, and the tools log in with what it holds.
 */
class BrokerCredentialsIT {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Test
    @DisplayName("Scenario: A first start without logins generates them into an owner-only file, prints them once, and every later start reads it")
    void firstStartGeneratesLaterStartsRead() throws Exception {
        Path work = Files.createTempDirectory("claimguard-credentials-");
        TestDatabase database = TestDatabase.createSeparate();
        int managementPort = FreePort.onLoopback();
        int brokerPort = FreePort.onLoopback();
        Path dataDirectory = work.resolve("artemis");
        ServiceProcess service = new ServiceProcess(ServiceProcess.findJar(), Map.of(
                "spring.datasource.url", database.jdbcUrl(),
                "spring.datasource.username", database.username(),
                "spring.datasource.password", database.password(),
                "claimguard.file.inbox", work.resolve("inbox").toString(),
                "claimguard.file.outbox", work.resolve("outbox").toString(),
                "claimguard.broker.data-directory", dataDirectory.toString(),
                "claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + brokerPort,
                "claimguard.management.port", Integer.toString(managementPort)),
                work, managementPort);
        Path file = dataDirectory.resolve("credentials.properties");
        try {
            service.start();
            service.awaitReady(PATIENCE);

            assertThat(file).as("the credentials file, where the README says").isRegularFile();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            BrokerUsers generated = CredentialsFile.read(file);
            assertThat(generated.logins()).containsOnlyKeys(BrokerRole.values());
            String firstLog = Files.readString(service.currentLog());
            for (BrokerLogin login : generated.logins().values()) {
                assertThat(login.password()).hasSizeGreaterThanOrEqualTo(32);
                assertThat(occurrences(firstLog, login.password())).as("printed once: " + login.user()).isEqualTo(1);
            }
            String firstContent = Files.readString(file);
            sendAndAwait(brokerPort, file, database, "first");

            service.stop();
            service.start();
            service.awaitReady(PATIENCE);

            assertThat(Files.readString(file)).as("read again, not written again").isEqualTo(firstContent);
            String secondLog = Files.readString(service.currentLog());
            assertThat(secondLog).contains("read from " + file.toAbsolutePath());
            for (BrokerLogin login : generated.logins().values()) {
                assertThat(secondLog).as("no password printed at a later start").doesNotContain(login.password());
            }
            sendAndAwait(brokerPort, file, database, "second");
        } finally {
            service.close();
            database.drop();
        }
    }

    /** Sends an envelope with {@code claimguard send}, logged in with the producer's login of the file; awaits its row. */
    private static void sendAndAwait(int brokerPort, Path credentials, TestDatabase database, String start) throws Exception {
        String requestId = "credentials-" + start + "-" + UUID.randomUUID().toString().substring(0, 8);
        Path envelope = Files.writeString(Files.createTempFile("envelope-", ".json"), passingV1(requestId));
        CliRun sent = CliRun.of("send", "--no-wait", "--broker", "tcp://127.0.0.1:" + brokerPort,
                "--broker-credentials", credentials.toString(), envelope.toString());
        assertThat(sent.exitCode()).as(sent.toString()).isZero();
        try (Connection connection = database.connect();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT count(*) FROM claimguard.verification_audit WHERE request_id = ?")) {
            query.setString(1, requestId);
            await().atMost(PATIENCE).until(() -> {
                try (ResultSet rows = query.executeQuery()) {
                    rows.next();
                    return rows.getLong(1) == 1;
                }
            });
        }
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
