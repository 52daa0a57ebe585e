package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.domain.OutboxName;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The inbox is a boundary: only regular files in it are read, nothing is followed through a link, no entry holds the
 * files after it up, and nothing is moved through a {@code .done} that is not the inbox's own.
 */
class InboxBoundaryIT extends ServiceTestSupport {

    /** What "on time" means for a valid file dropped after an entry that once held the intake up for ever. */
    private static final Duration ON_TIME = Duration.ofSeconds(10);

    @Test
    @DisplayName("Scenario: A symbolic link named like an input is set aside without being followed, and holds nothing up")
    void aSymbolicLinkIsSetAsideWithoutBeingFollowed() throws Exception {
        String id = uniqueId("link");
        Path outside = temporaryFolder("claimguard-outside-").resolve("secret.json");
        // a valid envelope: had the link been followed, it would have been audited
        byte[] secret = utf8(passingV1("secret-" + id));
        Files.write(outside, secret);
        String link = "evil-" + id + ".json";
        try (LogCapture log = new LogCapture()) {
            Files.createSymbolicLink(INBOX.resolve(link), outside);
            String after = "after-" + id;
            dropFile(after + ".json", utf8(passingV1(after)));

            await().atMost(ON_TIME).until(() -> Files.exists(done(after + ".json")));
            await().atMost(PATIENCE).until(() -> Files.exists(error(link + ".reason")));
            Map<String, Object> deadLetter = awaitDeadLetter(link);

            assertThat(attributes(error(link)).isSymbolicLink()).isTrue();
            assertThat(Files.readSymbolicLink(error(link))).isEqualTo(outside);
            assertThat(deadLetter).containsEntry("reason_code", "file_type.unsupported").containsEntry("payload_size", 0L);
            assertThat((byte[]) deadLetter.get("payload")).isEmpty();
            assertThat(Files.readString(error(link + ".reason")))
                    .startsWith("file_type.unsupported: a symbolic link, not a regular file: set aside without following it\n");
            assertThat(auditRows("secret-" + id)).isEmpty();
            assertThat(Files.readAllBytes(outside)).isEqualTo(secret);
            assertThat(Files.exists(INBOX.resolve(link), LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThat(log.warnings(link)).hasSize(1);
        }
    }

    @Test
    @DisplayName("Scenario: A FIFO named like an input is set aside without being opened, and holds nothing up")
    void aFifoIsSetAsideWithoutBeingOpened() throws Exception {
        String id = uniqueId("fifo");
        String fifo = "pipe-" + id + ".json";
        Process mkfifo = new ProcessBuilder("mkfifo", INBOX.resolve(fifo).toString()).redirectErrorStream(true).start();
        assertThat(mkfifo.waitFor()).isZero();
        String after = "after-" + id;
        dropFile(after + ".json", utf8(passingV1(after)));

        await().atMost(ON_TIME).until(() -> Files.exists(done(after + ".json")));
        await().atMost(PATIENCE).until(() -> Files.exists(error(fifo + ".reason")));
        Map<String, Object> deadLetter = awaitDeadLetter(fifo);

        assertThat(attributes(error(fifo)).isOther()).as("still a FIFO").isTrue();
        assertThat(deadLetter).containsEntry("reason_code", "file_type.unsupported").containsEntry("payload_size", 0L);
        assertThat(Files.readString(error(fifo + ".reason"))).startsWith("file_type.unsupported: a special file (a FIFO,");
        assertThat(awaitAuditRow(after)).containsEntry("source_ref", after + ".json");
    }

    @Test
    @DisplayName("Scenario: A directory or a socket named like an input is set aside without being looked into")
    void aDirectoryOrASocketIsSetAsideWithoutBeingLookedInto() throws Exception {
        String id = uniqueId("special");
        String directory = "dir-" + id + ".json";
        String inner = "inner-" + id;
        Path prepared = temporaryFolder("claimguard-directory-").resolve(directory);
        Files.createDirectory(prepared);
        Files.write(prepared.resolve(inner + ".json"), utf8(passingV1(inner)));
        Files.move(prepared, INBOX.resolve(directory));
        String socket = "sock-" + id + ".json";
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(INBOX.resolve(socket)));

            await().atMost(PATIENCE).until(() -> Files.exists(error(directory + ".reason")) && Files.exists(error(socket + ".reason")));
        }
        assertThat(attributes(error(directory)).isDirectory()).isTrue();
        assertThat(error(directory).resolve(inner + ".json")).exists();
        assertThat(attributes(error(socket)).isOther()).isTrue();
        assertThat(Files.readString(error(directory + ".reason")))
                .startsWith("file_type.unsupported: a directory, not a regular file: set aside without looking into it\n");
        assertThat(Files.readString(error(socket + ".reason"))).startsWith("file_type.unsupported: a special file");
        assertThat(awaitDeadLetter(directory)).containsEntry("reason_code", "file_type.unsupported");
        assertThat(awaitDeadLetter(socket)).containsEntry("reason_code", "file_type.unsupported");
        assertThat(auditRows(inner)).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Nothing is moved through a .done that is a symbolic link")
    void nothingIsMovedThroughADoneThatIsALink() throws Exception {
        String requestId = uniqueId("done-link");
        String name = requestId + ".json";
        Path outside = temporaryFolder("claimguard-outside-done-");
        Path done = INBOX.resolve(".done");
        Path aside = INBOX.resolve(".done-aside-" + UUID.randomUUID());
        Files.createDirectories(done);
        Files.move(done, aside);
        try {
            Files.createSymbolicLink(done, outside);
            dropFile(name, utf8(passingV1(requestId)));

            long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
            await().atMost(PATIENCE).until(() -> Files.exists(error(name + ".reason")) && Files.exists(error(name)));
            assertThat(Files.readString(error(name + ".reason")))
                    .startsWith("processing_failed: processing failed after " + FILE_ATTEMPTS + " attempts: ")
                    .contains(".done: not a directory of the inbox's own");
            assertThat(awaitDeadLetter(name)).containsEntry("reason_code", "processing_failed");
            try (Stream<Path> nothing = Files.list(outside)) {
                assertThat(nothing).isEmpty();
            }
            assertThat(OUTBOX.resolve(OutboxName.of(requestId, auditId))).exists();
            assertThat(resultsOnOutputQueue(requestId)).as("forwarded once over all its attempts").isEqualTo(1);
        } finally {
            Files.deleteIfExists(done);
            if (Files.isDirectory(done, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(done);
            }
            Files.move(aside, done);
        }
    }

    private static BasicFileAttributes attributes(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }
}
