package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.claimguard.domain.OutboxName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A file that fails after its audit commit is not retried hot, is forwarded once, and is set aside in the end. */
class FileRetriesIT extends ServiceTestSupport {

    /** The test service's back-off: 100 ms, doubling, at most 400 ms. */
    private static final long[] WAITS = {100, 200, 400};

    @Test
    @DisplayName("Scenario: A file failing after its audit commit is retried with back-off, forwarded once, then set aside")
    void aFileFailingAfterItsAuditCommitIsRetriedWithBackoffForwardedOnceThenSetAside() throws Exception {
        String requestId = uniqueId("retried");
        byte[] envelope = utf8(passingV1(requestId));
        dropFile("first-" + requestId + ".json", envelope);
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
        Path result = OUTBOX.resolve(OutboxName.of(requestId, auditId));
        Path signature = Path.of(result + ".sig");
        await().atMost(PATIENCE).until(() -> Files.exists(result) && Files.exists(done("first-" + requestId + ".json")));
        // the copy's signature cannot be written: its place is taken by a folder that cannot be removed
        Files.delete(signature);
        Files.createDirectory(signature);
        Files.writeString(signature.resolve("keep"), "in the way");

        String copy = "copy-" + requestId + ".json";
        try (LogCapture log = new LogCapture()) {
            dropFile(copy, envelope);
            await().atMost(PATIENCE).until(() -> Files.exists(error(copy + ".reason")) && Files.exists(error(copy)));

            List<ILoggingEvent> failures = log.warnings("file input " + copy + " failed (attempt ");
            assertThat(failures).hasSize(FILE_ATTEMPTS);
            for (int attempt = 1; attempt < FILE_ATTEMPTS; attempt++) {
                long waited = failures.get(attempt).getTimeStamp() - failures.get(attempt - 1).getTimeStamp();
                assertThat(waited).as("wait before attempt %d", attempt + 1).isGreaterThanOrEqualTo(WAITS[attempt - 1]);
            }
            assertThat(failures.get(FILE_ATTEMPTS - 1).getFormattedMessage()).contains("set aside in .error/");
        }
        Map<String, Object> deadLetter = awaitDeadLetter(copy);
        assertThat(deadLetter.get("reason_code")).isEqualTo("processing_failed");
        assertThat((String) deadLetter.get("reason")).startsWith("processing failed after " + FILE_ATTEMPTS + " attempts: ");
        assertThat((byte[]) deadLetter.get("payload")).isEqualTo(envelope);
        assertThat(Files.readString(error(copy + ".reason"))).startsWith("processing_failed: processing failed after ");
        assertThat(auditRows(requestId)).hasSize(1);
        assertThat(resultsOnOutputQueue(requestId)).as("the first file's result, and the copy's once").isEqualTo(2);
        assertThat(Files.exists(INBOX.resolve(copy))).isFalse();

        Files.delete(signature.resolve("keep"));
        Files.delete(signature);
        // the signature's temporary file each attempt wrote before it failed
        Files.deleteIfExists(OUTBOX.resolve("." + signature.getFileName() + ".tmp"));
    }
}
