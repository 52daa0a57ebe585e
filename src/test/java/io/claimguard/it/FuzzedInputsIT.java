package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.harness.fuzz.FuzzedInputs;
import io.claimguard.testkit.HarnessInput;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A sample of fuzzed inputs through the running service: every distinct input ends audited or dead-lettered.
 * {@code -Dclaimguard.fuzz.service-sample=10000} for the full sample.
 */
class FuzzedInputsIT extends ServiceTestSupport {

    @Test
    @DisplayName("Scenario: A sample of fuzzed inputs through the service is all accounted for")
    void fuzzedInputsAreAllAccountedFor() throws Exception {
        int sample = Integer.getInteger("claimguard.fuzz.service-sample", 1_000);
        List<byte[]> inputs = FuzzedInputs.sample(sample, 77L);
        Set<String> distinct = new HashSet<>();
        for (byte[] input : inputs) {
            distinct.add(HarnessInput.sha256(input));
            sendBytes(input, "fuzz");
        }

        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1)).until(() -> unaccounted(distinct).isEmpty());
        assertThat(unaccounted(distinct)).isEmpty();
        // every input the reader accepts is audited, whatever its values: none fails inside processing
        List<String> failed = SQL.queryForList("SELECT encode(payload_sha256, 'hex') FROM claimguard.dead_letter"
                + " WHERE source = 'jms' AND reason_code = 'processing_failed'", String.class);
        assertThat(failed).as("fuzzed inputs dead-lettered as processing_failed").doesNotContainAnyElementsOf(distinct);
    }

    private static Set<String> unaccounted(Set<String> hashes) {
        Set<String> found = new HashSet<>(SQL.queryForList(
                "SELECT encode(input_sha256, 'hex') FROM claimguard.verification_audit", String.class));
        found.addAll(SQL.queryForList("SELECT encode(payload_sha256, 'hex') FROM claimguard.dead_letter WHERE source = 'jms'",
                String.class));
        Set<String> missing = new HashSet<>(hashes);
        missing.removeAll(found);
        return missing;
    }
}
