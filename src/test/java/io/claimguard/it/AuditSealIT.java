package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class AuditSealIT extends ServiceTestSupport {

    private static final String SEALING_FAILED = "audit sealing failed, trying again";
    private static final Pattern SEALING_RESUMED = Pattern.compile("audit sealing works again after (\\d+) failed round");
    private static final Pattern LOG_LINE_START = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T");

    @Test
    @DisplayName("Scenario: Every audited input is sealed into one unbroken chain")
    void everyAuditedInputIsSealed() {
        List<String> requestIds = new ArrayList<>();
        // two JMS consumers and the file poller write at once, so ids commit out of order
        for (int input = 0; input < 8; input++) {
            String requestId = uniqueId("sealed-jms");
            sendText(input % 2 == 0 ? gatekeeperFailedV2(requestId) : passingV1(requestId), requestId);
            requestIds.add(requestId);
        }
        for (int input = 0; input < 2; input++) {
            String requestId = uniqueId("sealed-file");
            dropFile(requestId + ".json", utf8(gatekeeperFailedV2(requestId)));
            requestIds.add(requestId);
        }

        await().atMost(PATIENCE).until(() -> requestIds.stream().allMatch(ServiceTestSupport::sealed));
        assertThat(SQL.queryForObject("""
                SELECT count(*) FROM claimguard.verification_audit a JOIN claimguard.audit_seal s ON s.audit_id = a.id
                WHERE a.request_id = ANY (?)""", Long.class, (Object) requestIds.toArray(String[]::new)))
                .as("one seal per audited input").isEqualTo(requestIds.size());
        assertThat(brokenLinks()).as("seals whose previous_hash is not the hash of the seal before").isZero();
    }

    @Test
    @DisplayName("Scenario: Inputs are audited and forwarded while sealing is held up")
    void sealingNeverHoldsUpAnInput() throws Exception {
        String requestId = uniqueId("unsealed");
        try (Connection otherSealer = DATABASE.connect()) {
            holdSealerLock(otherSealer);
            sendText(passingV1(requestId), requestId);

            assertThat(receiveResult(requestId)).as("the effective result").isNotNull();
            assertThat(auditRows(requestId)).hasSize(1);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> !sealed(requestId));
        } // closing the other sealer's session releases its lock

        await().atMost(PATIENCE).until(() -> sealed(requestId));
    }

    @Test
    @DisplayName("Scenario: The sealer waits out a database outage with one warning and goes on sealing")
    void sealerWaitsOutAnOutage(CapturedOutput output) {
        DATABASE_PROXY.cut();
        try {
            await().atMost(PATIENCE).until(() -> count(output.getOut(), SEALING_FAILED) == 1);
            // rounds keep failing (one connection timeout each) without another warning
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> count(output.getOut(), SEALING_FAILED) == 1);
        } finally {
            DATABASE_PROXY.restore();
        }

        String requestId = uniqueId("after-outage");
        sendText(passingV1(requestId), requestId);
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        Matcher resumed = SEALING_RESUMED.matcher(output.getOut());
        assertThat(resumed.find()).as("the INFO line once sealing works again").isTrue();
        assertThat(Integer.parseInt(resumed.group(1))).as("failed rounds").isGreaterThanOrEqualTo(2);

        List<String> lines = output.getOut().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(SEALING_FAILED)) {
                assertThat(lines.get(i)).contains(" WARN ");
                assertThat(i + 1 == lines.size() || LOG_LINE_START.matcher(lines.get(i + 1)).find())
                        .as("no stack trace after: %s", lines.get(i)).isTrue();
            }
        }
    }

    /** Links of the whole chain, checked in SQL apart from the service's code. */
    private static long brokenLinks() {
        return SQL.queryForObject("""
                SELECT count(*) FROM (
                    SELECT previous_hash, lag(hash, 1, decode(repeat('00', 32), 'hex')) OVER (ORDER BY seq) AS hash_before
                    FROM claimguard.audit_seal) AS link
                WHERE previous_hash <> hash_before""", Long.class);
    }

    private static long count(String text, String part) {
        return text.lines().filter(line -> line.contains(part)).count();
    }
}
