package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.audit.Sha256;
import io.claimguard.broker.BrokerRole;
import io.claimguard.testkit.ExplorerClient;
import io.claimguard.testkit.LargeAudits;
import io.claimguard.testkit.TestBrokerUsers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs larger than a dead letter keeps ({@link #MAX_STORED_BYTES}, the default 8 MiB), by every
 * entry of the shared service: the dead_letter row keeps their first bytes, their whole size and SHA-256, marked
 * truncated; the copy the intake sets aside keeps them whole; the explorer's page of such a row stays small.
 */
class BoundedDeadLetterIT extends ServiceTestSupport {

    /** Above the cap: 10 MiB. */
    private static final int HUGE = 10 * 1024 * 1024;

    @Test
    @DisplayName("Scenario: A rejected file larger than the cap keeps its first bytes in dead_letter and stays whole in .error")
    void hugeFile(@TempDir Path folder) throws Exception {
        String name = uniqueId("huge-file") + ".json";
        Path written = LargeAudits.hugeFile(folder.resolve(name), HUGE);
        byte[] whole = Files.readAllBytes(written);
        Files.createDirectories(INBOX);
        Files.move(written, INBOX.resolve(name + ".tmp"));
        Files.move(INBOX.resolve(name + ".tmp"), INBOX.resolve(name), StandardCopyOption.ATOMIC_MOVE);

        Map<String, Object> row = awaitDeadLetter(name);
        assertTruncated(row, whole);
        assertThat(row).containsEntry("source", "file").containsEntry("reason_code", "too_large");
        assertThat((String) row.get("reason")).startsWith("input is " + HUGE + " bytes, larger than the limit");
        await().atMost(PATIENCE).until(() -> Files.exists(error(name + ".reason")));
        assertThat(Files.readAllBytes(error(name))).as("the file in .error/, whole").isEqualTo(whole);
    }

    @Test
    @DisplayName("Scenario: A rejected message larger than the cap keeps its first bytes in dead_letter and goes whole to the dead-letter queue")
    void hugeMessages(@TempDir Path folder) throws Exception {
        byte[] bytes = notJson("huge-core", HUGE);
        String core = uniqueId("huge-core");
        sendBytes(bytes, core);
        DeadLetterMessage coreCopy = receiveDeadLetter(core);
        assertThat(coreCopy).as("the core message on the dead-letter queue").isNotNull();
        assertThat(coreCopy.body()).as("the core message's dead-letter copy, whole").isEqualTo(bytes);
        assertThat(coreCopy.reason()).startsWith("too_large: input is " + HUGE + " bytes");
        assertTruncated(deadLetterHashed(bytes), bytes);

        // an AMQP 1.0 string body, from a client nobody in this project wrote: the input is its text as UTF-8
        String amqp = uniqueId("huge-amqp");
        String text = new String(notJson("huge-amqp é", HUGE), StandardCharsets.UTF_8);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        sendAmqp(folder, TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.PRODUCER), INPUT_QUEUE,
                List.of(Map.of("test_case", amqp, "section", "string", "body", text)));
        DeadLetterMessage amqpCopy = receiveDeadLetter(amqp);
        assertThat(amqpCopy).as("the AMQP message on the dead-letter queue").isNotNull();
        assertThat(amqpCopy.body()).as("the AMQP message's dead-letter copy, whole").isEqualTo(utf8);
        Map<String, Object> amqpRow = deadLetterHashed(utf8);
        assertTruncated(amqpRow, utf8);
        assertThat(amqpRow).containsEntry("source", "jms").containsEntry("reason_code", "too_large");
    }

    @Test
    @DisplayName("Scenario: A truncated dead letter's page shows its first bytes, its size, its hash and where it is whole")
    void explorerPageOfHugeDeadLetter() {
        byte[] bytes = notJson("huge-page", HUGE);
        byte[] beyondShown = "beyond-what-the-page-shows".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(beyondShown, 0, bytes, 70_000, beyondShown.length);
        String testCase = uniqueId("huge-page");
        sendBytes(bytes, testCase);
        assertThat(receiveDeadLetter(testCase)).isNotNull();
        Map<String, Object> row = deadLetterHashed(bytes);

        ExplorerClient.Page page = ExplorerClient.logIn(managementPort).get("/explorer/dead-letters/" + row.get("id"));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body().length).as("the page of a 10 MiB dead letter").isLessThan(200_000);
        String html = page.text();
        assertThat(html).contains("10,485,760").contains(HexFormat.of().formatHex(Sha256.of(bytes)))
                .contains("only the first 8,388,608 bytes (payload_truncated)")
                .contains("on the dead-letter queue " + DEAD_LETTER_QUEUE + " (JMS message id " + row.get("source_ref") + ")")
                .contains("Only the first 65,536 bytes are shown.")
                .contains(new String(bytes, 0, 1000, StandardCharsets.US_ASCII))
                .doesNotContain("beyond-what-the-page-shows");
        ExplorerClient.Page list = ExplorerClient.logIn(managementPort).get("/explorer/dead-letters?reason=too_large");
        assertThat(list.text()).contains("10,485,760 (cut)");
    }

    /** The row keeps the first {@link #MAX_STORED_BYTES} bytes, the whole size and the whole input's SHA-256. */
    private static void assertTruncated(Map<String, Object> row, byte[] whole) {
        assertThat((byte[]) row.get("payload")).as("the bytes kept").isEqualTo(Arrays.copyOf(whole, MAX_STORED_BYTES));
        assertThat(row).containsEntry("payload_size", (long) whole.length).containsEntry("payload_truncated", true);
        assertThat((byte[]) row.get("payload_sha256")).isEqualTo(Sha256.of(whole));
    }

    /** The dead_letter row of these exact bytes (by their SHA-256), once it is there. */
    private static Map<String, Object> deadLetterHashed(byte[] whole) {
        String query = "SELECT * FROM claimguard.dead_letter WHERE payload_sha256 = ?";
        byte[] sha256 = Sha256.of(whole);
        await().atMost(PATIENCE).until(() -> !SQL.queryForList(query, (Object) sha256).isEmpty());
        return SQL.queryForList(query, (Object) sha256).get(0);
    }

    /** {@code size} bytes of text that is not JSON, starting with a tag of its own. */
    private static byte[] notJson(String tag, int size) {
        byte[] bytes = new byte[size];
        byte[] start = ("not json: " + uniqueId(tag) + " ").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < size; i++) {
            bytes[i] = i < start.length ? start[i] : (byte) ('a' + i % 26);
        }
        return bytes;
    }
}
