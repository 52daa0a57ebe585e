package io.claimguard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class AuditDocumentTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("Scenario: The envelope is rebuilt from the audit document")
    void removesTheKeyClaimGuardAdded() {
        assertThat(JSON.readTree(AuditDocument.envelope(7, """
                {"request_id": "r", "verifier_output": {"groundedness_score": 0.10000000000000000001},
                 "effective_result": {"audit_id": 7, "verdict": "PASS"}}""")))
                .isEqualTo(JSON.readTree("""
                        {"request_id": "r", "verifier_output": {"groundedness_score": 0.10000000000000000001}}"""));
        assertThat(JSON.readTree(AuditDocument.envelope(8, """
                {"request_id": "r", "effective_result": "the envelope's own",
                 "claimguard_effective_result": {"audit_id": 8, "verdict": "PASS"}}""")))
                .isEqualTo(JSON.readTree("""
                        {"request_id": "r", "effective_result": "the envelope's own"}"""));
        assertThat(JSON.readTree(AuditDocument.envelope(9, """
                {"request_id": "r", "claimguard_effective_result": {"audit_id": 1},
                 "effective_result": {"audit_id": 9, "verdict": "PASS"}}""")))
                .isEqualTo(JSON.readTree("""
                        {"request_id": "r", "claimguard_effective_result": {"audit_id": 1}}"""));
    }

    @Test
    void keepsDecimalsExactly() {
        assertThat(AuditDocument.envelope(7, """
                {"score": 1.00000000000000000001, "big": 123456789012345678901234567890, "effective_result": {}}"""))
                .contains("1.00000000000000000001", "123456789012345678901234567890");
    }

    @Test
    void aDocumentWithoutAnEffectiveResultIsNamed() {
        assertThatThrownBy(() -> AuditDocument.envelope(3, "{\"request_id\": \"r\"}"))
                .hasMessage("audit 3: the audit document holds no effective result");
        assertThatThrownBy(() -> AuditDocument.envelope(4, "[]")).hasMessage("audit 4: the audit document is not a JSON object");
    }
}
