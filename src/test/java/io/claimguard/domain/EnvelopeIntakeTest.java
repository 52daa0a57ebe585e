package io.claimguard.domain;

import static io.claimguard.domain.EnvelopeJson.rejectionOf;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Proves openspec/specs/envelope-intake/spec.md. */
class EnvelopeIntakeTest {

    @Test
    @DisplayName("Scenario: Number beyond the representable range")
    void numberBeyondTheRepresentableRange() {
        EnvelopeRejectedException rejection = rejectionOf("""
                {"request_id": "req-1", "verifier_output": {"groundedness_score": 1e2147483648}}""");

        assertThat(rejection.reason()).isEqualTo(RejectionReason.NOT_JSON);
        assertThat(rejection.getMessage()).contains("number that cannot be represented", "1e2147483648");
    }
}
