package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RollupCompactionIT extends ServiceTestSupport {

    /** Groups of the current hour's inputs-per-hour rollup, and the rows they take. */
    private static final String CURRENT_HOUR = """
            SELECT count(DISTINCT (source, projection_mode, effective_verdict, downgraded)) || '/' || count(*)
            FROM claimguard.audit_rollup
            WHERE received_hour = date_trunc('hour', now() AT TIME ZONE 'UTC')""";

    @Test
    @DisplayName("Scenario: The service compacts the rollups on its own")
    void theServiceCompactsTheRollups() {
        // one input per write statement: each waits for the one before to be audited
        for (int i = 0; i < 4; i++) {
            String requestId = uniqueId("rollup-compaction");
            sendText(passingV1(requestId), "rollup-compaction");
            awaitAuditRow(requestId);
        }
        await().atMost(PATIENCE).untilAsserted(() -> {
            String[] groupsAndRows = SQL.queryForObject(CURRENT_HOUR, String.class).split("/");
            assertThat(groupsAndRows[1]).as("rows of the current hour's groups").isEqualTo(groupsAndRows[0]);
        });
    }
}
