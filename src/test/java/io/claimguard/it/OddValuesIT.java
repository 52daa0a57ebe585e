package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Message;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Valid envelopes holding values PostgreSQL cannot store as they are: audited all the same. */
class OddValuesIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("Scenario: An envelope carrying U+0000 and a lone surrogate is audited with them spelled out")
    void nulAndLoneSurrogateAreAuditedSpelledOut() throws Exception {
        String requestId = uniqueId("odd-text");
        // JSON escapes, as a producer sends them: fine JSON, but neither PostgreSQL text nor jsonb holds them
        String envelope = gatekeeperFailedV2(requestId)
                .replace("\"CPU is observed; the deploy is not.\"", "\"nul \\u0000 and \\ud800 here\"")
                .replace("\"a deploy at 10:02 caused it\"", "\"deploy\\u0000 at \\udc00 10:02\"")
                .replace("\"producer\": \"verifier-v2\"", "\"producer\": \"verifier-v2\", \"odd\\u0000name\": \"x\\ud800\"");
        sendText(envelope, requestId);

        Message result = receiveResult(requestId);
        assertThat(result).isNotNull();
        JsonNode forwarded = JSON.readTree(text(result));
        assertThat(forwarded.get("rationale").stringValue()).isEqualTo("nul \u0000 and \ud800 here");
        assertThat(forwarded.at("/claim_checks/1/claim_text").stringValue()).isEqualTo("deploy\u0000 at \udc00 10:02");

        Map<String, Object> row = awaitAuditRow(requestId);
        JsonNode audit = JSON.readTree(SQL.queryForObject(
                "SELECT audit::text FROM claimguard.verification_audit WHERE id = ?", String.class, row.get("id")));
        assertThat(audit.at("/verifier_output/rationale").stringValue()).isEqualTo("nul \\u0000 and \uFFFD here");
        assertThat(audit.get("odd\\u0000name").stringValue()).isEqualTo("x\uFFFD");
        assertThat(audit.at("/effective_result/rationale").stringValue()).isEqualTo("nul \\u0000 and \uFFFD here");
        assertThat(SQL.queryForObject("SELECT claim_text FROM claimguard.claim_check WHERE audit_id = ? AND ordinal = 1",
                String.class, row.get("id"))).isEqualTo("deploy\\u0000 at \uFFFD 10:02");
        assertThat(row.get("effective_verdict")).isEqualTo("REJECT");
    }

    @Test
    @DisplayName("Scenario: A number beyond PostgreSQL's numeric range is stored as a string of its digits")
    void aNumberBeyondNumericIsStoredAsAString() throws Exception {
        String requestId = uniqueId("odd-number");
        String envelope = gatekeeperFailedV2(requestId)
                .replace("\"producer\": \"verifier-v2\"", "\"producer\": \"verifier-v2\", \"huge\": 1e200000, \"fine\": 1e300");
        sendText(envelope, requestId);

        assertThat(receiveResult(requestId)).isNotNull();
        Map<String, Object> row = awaitAuditRow(requestId);
        JsonNode audit = JSON.readTree(SQL.queryForObject(
                "SELECT audit::text FROM claimguard.verification_audit WHERE id = ?", String.class, row.get("id")));
        assertThat(audit.get("huge").isString()).isTrue();
        assertThat(audit.get("huge").stringValue()).isEqualTo("1E+200000");
        assertThat(audit.get("fine").isNumber()).isTrue();
    }
}
