package io.claimguard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.ReceivedInput;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AuditBatchStatementTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String OUTPUT = "\"verifier_output\": {\"verdict\": \"PASS\"}";

    @Test
    void theEffectiveResultIsAddedWithItsAuditId() throws Exception {
        JsonNode document = document("{\"request_id\": \"r-1\", " + OUTPUT + "  \n}\n", 41);
        assertThat(document.get("request_id").asString()).isEqualTo("r-1");
        assertThat(document.get("effective_result").get("audit_id").asLong()).isEqualTo(41);
        assertThat(AuditDocument.envelope(41, document.toString())).isEqualTo(JSON.readTree(
                "{\"request_id\": \"r-1\", " + OUTPUT + "}").toString());
    }

    @Test
    void anEnvelopesOwnEffectiveResultStaysAsItCame() throws Exception {
        JsonNode document = document("{\"request_id\": \"r-2\", " + OUTPUT
                + ", \"effective_result\": \"its own\", \"claimguard_effective_result\": 5}", 42);
        assertThat(document.get("effective_result").asString()).isEqualTo("its own");
        // the member added last wins, as jsonb's || let it
        assertThat(document.get("claimguard_effective_result").get("audit_id").asLong()).isEqualTo(42);
    }

    private static JsonNode document(String envelope, long auditId) throws Exception {
        byte[] bytes = envelope.getBytes(StandardCharsets.UTF_8);
        Verification verification = Verification.of(new EnvelopeReader(new Limits(1_048_576, 64)).read(bytes));
        AuditRecord record = AuditRecord.of(new ReceivedInput(ReceivedInput.Source.JMS, "m-1", OffsetDateTime.now(),
                bytes, null, null), verification);
        return JSON.readTree(AuditBatchStatement.auditDocument(record, auditId));
    }
}
