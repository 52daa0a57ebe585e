package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The service as its own JVM (the jar), stopped with SIGTERM while it works through a backlog of files. */
class GracefulStopIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int FILES = 400;

    @Test
    @DisplayName("Scenario: SIGTERM stops the service gracefully with exit code 0")
    void sigtermStopsTheServiceGracefullyWithExitCodeZero() throws Exception {
        Path work = Files.createTempDirectory("claimguard-graceful-stop-");
        Path inbox = Files.createDirectories(work.resolve("inbox"));
        TestDatabase database = TestDatabase.createSeparate();
        int managementPort = FreePort.onLoopback();
        ServiceProcess service = new ServiceProcess(ServiceProcess.findJar(), Map.of(
                "spring.datasource.url", database.jdbcUrl(),
                "spring.datasource.username", database.username(),
                "spring.datasource.password", database.password(),
                "claimguard.file.inbox", inbox.toString(),
                "claimguard.file.outbox", work.resolve("outbox").toString(),
                "claimguard.broker.data-directory", work.resolve("artemis").toString(),
                "claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + FreePort.onLoopback(),
                "claimguard.management.port", Integer.toString(managementPort)),
                work, managementPort);
        try {
            service.start();
            service.awaitReady(PATIENCE);
            IntStream.range(0, FILES).forEach(i -> drop(inbox, "stop-" + i));
            try (Connection connection = database.connect()) {
                await().atMost(PATIENCE).until(() -> audited(connection).size() >= 10);
                service.stop();

                assertThat(service.alive()).isFalse();
                assertThat(service.exitCode()).isZero();
                // in flight when the stop came: finished, audited and moved; nothing half done, nothing lost
                Set<String> audited = audited(connection);
                Set<String> done = names(inbox.resolve(".done"));
                Set<String> waiting = names(inbox);
                assertThat(done).isEqualTo(audited);
                assertThat(Files.exists(inbox.resolve(".error"))).isFalse();
                Set<String> everyFile = new HashSet<>(done);
                everyFile.addAll(waiting);
                assertThat(everyFile).hasSize(FILES);
                assertThat(service.logTail(200)).doesNotContain("Exception");
            }
        } finally {
            service.close();
            database.drop();
        }
    }

    private static void drop(Path inbox, String requestId) {
        try {
            Path temporary = inbox.resolve(requestId + ".json.tmp");
            Files.write(temporary, utf8(passingV1(requestId)));
            Files.move(temporary, inbox.resolve(requestId + ".json"), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Set<String> audited(Connection connection) throws SQLException {
        Set<String> sourceRefs = new HashSet<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT source_ref FROM claimguard.verification_audit");
                ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                sourceRefs.add(rows.getString(1));
            }
        }
        return sourceRefs;
    }

    private static Set<String> names(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".json"))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }
}
