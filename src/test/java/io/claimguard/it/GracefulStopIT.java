package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.checkpoint.CheckpointLog;
import io.claimguard.checkpoint.DirectoryCheckpointLog;
import io.claimguard.checkpoint.Ed25519Keys;
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
import java.util.List;
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
    @DisplayName("Scenario: SIGTERM stops the service gracefully with exit code 0, after a checkpoint of the chain's head")
    void sigtermStopsTheServiceGracefullyWithExitCodeZero() throws Exception {
        Path work = Files.createTempDirectory("claimguard-graceful-stop-");
        Path inbox = Files.createDirectories(work.resolve("inbox"));
        TestDatabase database = TestDatabase.createSeparate();
        int managementPort = FreePort.onLoopback();
        Path key = work.resolve("checkpoint.key");
        Files.writeString(key, Ed25519Keys.signingKeyPem(Ed25519Keys.generate()));
        Path checkpoints = work.resolve("checkpoints");
        ServiceProcess service = new ServiceProcess(ServiceProcess.findJar(), Map.ofEntries(
                // an hour apart: the checkpoint at the stop is the only one after the first round, whose chain is empty
                Map.entry("claimguard.checkpoint.private-key", key.toString()),
                Map.entry("claimguard.checkpoint.directory", checkpoints.toString()),
                Map.entry("claimguard.checkpoint.period", "1h"),
                Map.entry("claimguard.seal.period", "100ms"),
                Map.entry("spring.datasource.url", database.jdbcUrl()),
                Map.entry("spring.datasource.username", database.username()),
                Map.entry("spring.datasource.password", database.password()),
                Map.entry("claimguard.file.inbox", inbox.toString()),
                Map.entry("claimguard.file.outbox", work.resolve("outbox").toString()),
                Map.entry("claimguard.broker.data-directory", work.resolve("artemis").toString()),
                Map.entry("claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + FreePort.onLoopback()),
                Map.entry("claimguard.management.port", Integer.toString(managementPort))),
                work, managementPort);
        try {
            service.start();
            service.awaitReady(PATIENCE);
            IntStream.range(0, FILES).forEach(i -> drop(inbox, "stop-" + i));
            try (Connection connection = database.connect()) {
                await().atMost(PATIENCE).until(() -> audited(connection).size() >= 10 && seals(connection) >= 10);
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
                // the head as it was when the sealer stopped, signed on the way out
                List<CheckpointLog.LoggedCheckpoint> signed = new DirectoryCheckpointLog(checkpoints).entries();
                assertThat(signed).hasSize(1);
                assertThat(signed.get(0).checkpoint().checkpoint().treeSize()).isEqualTo(seals(connection));
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

    private static long seals(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM claimguard.audit_seal");
                ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getLong(1);
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
