package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.claimguard.audit.AuditWriter;
import io.claimguard.domain.Finding;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Outcome;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import io.claimguard.testkit.Envelopes;
import io.claimguard.testkit.Verifications;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Arrays;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finding rows through the service's own audit writer (its group commit, its one statement, the running sealer),
 * for verifications whose findings the test chooses: what the domain's rules find is theirs to prove, storing
 * whatever they find is proven here.
 */
class FindingRowsIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    AuditWriter auditWriter;

    @Autowired
    CamelContext camel;

    @Test
    @DisplayName("Scenario: Each finding becomes one finding row, written with its audit row")
    void eachFindingBecomesOneFindingRow() throws Exception {
        String requestId = uniqueId("findings-stored");
        Verification verification = withThreeFindings(requestId);

        Exchange exchange = audit(verification);

        assertThat(InputExchange.outcome(exchange)).isEqualTo(Outcome.AUDITED);
        long auditId = InputExchange.auditId(exchange);
        assertThat(findingRows(auditId)).extracting(row -> Arrays.asList(row.get("ordinal"), row.get("claim_ordinal"),
                row.get("code"), row.get("detail"))).containsExactly(
                        Arrays.asList(0, 0, "evidence.unknown_invocation",
                                "source_invocation_ids 401 is not among the invocation_ids of trace-1 [394]"),
                        Arrays.asList(1, 0, "evidence.unknown_invocation",
                                "source_invocation_ids 402 is not among the invocation_ids of trace-1 [394]"),
                        Arrays.asList(2, null, "consistency.critical_fact_count_mismatch",
                                "critical_fact_count is 3; 2 critical claims were checked"));

        // the forwarded result and the audit JSON list the same findings
        JsonNode forwarded = JSON.readTree(exchange.getIn().getBody(String.class)).path("findings");
        assertThat(forwarded).hasSize(3);
        assertThat(forwarded.get(2).path("code").stringValue()).isEqualTo("consistency.critical_fact_count_mismatch");
        assertThat(forwarded.get(2).path("claim_ordinal").isNull()).isTrue();
        assertThat(JSON.readTree(SQL.queryForObject(
                "SELECT audit -> 'effective_result' -> 'findings' FROM claimguard.verification_audit WHERE id = ?",
                String.class, auditId))).isEqualTo(forwarded);
    }

    @Test
    @DisplayName("Scenario: A byte-identical input makes no new finding rows")
    void byteIdenticalInputMakesNoNewFindingRows() throws Exception {
        String requestId = uniqueId("findings-twice");
        Verification verification = withThreeFindings(requestId);
        long auditId = InputExchange.auditId(audit(verification));

        Exchange again = audit(verification);

        assertThat(InputExchange.outcome(again)).isEqualTo(Outcome.DUPLICATE);
        assertThat(InputExchange.auditId(again)).isEqualTo(auditId);
        assertThat(auditRows(requestId)).hasSize(1);
        assertThat(SQL.queryForObject("""
                SELECT count(*) FROM claimguard.finding f JOIN claimguard.verification_audit a ON a.id = f.audit_id
                WHERE a.request_id = ?""", Long.class, requestId)).isEqualTo(3);
    }

    @Test
    @DisplayName("Scenario: An audit row is never committed without its findings")
    void auditRowIsNeverCommittedWithoutItsFindings() throws Exception {
        String requestId = uniqueId("findings-refused");
        String refusedDetail = REFUSED_PREFIX + requestId;
        Verification verification = Verifications.withFindings(Envelopes.clean().set("request_id", "'" + requestId + "'"),
                new Finding(FindingCode.CONSISTENCY_GROUNDEDNESS_OUT_OF_RANGE, null, refusedDetail));
        // a stand-in for any finding row the database refuses: the audit row must not commit without it
        try (Connection owner = DATABASE.connect(); Statement statement = owner.createStatement()) {
            statement.execute("""
                    ALTER TABLE claimguard.finding ADD CONSTRAINT it_refuses_detail CHECK (detail NOT LIKE 'refused-%')""");
            try {
                assertThatThrownBy(() -> audit(verification)).hasStackTraceContaining("it_refuses_detail");
            } finally {
                statement.execute("ALTER TABLE claimguard.finding DROP CONSTRAINT it_refuses_detail");
            }
        }

        assertThat(auditRows(requestId)).isEmpty();
        Exchange afterwards = audit(verification);
        assertThat(findingRows(InputExchange.auditId(afterwards))).hasSize(1);
    }

    @Test
    @DisplayName("Scenario: A changed, added or removed finding row is named by the verifier")
    void changedFindingRowIsNamedByTheVerifier() throws Exception {
        String requestId = uniqueId("findings-sealed");
        long auditId = InputExchange.auditId(audit(withThreeFindings(requestId)));
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        String altered = "audit_id=" + auditId + ": content altered";

        SQL.update("UPDATE claimguard.finding SET detail = 'nothing wrong' WHERE audit_id = ? AND ordinal = 2", auditId);
        ChainReport afterChange;
        try {
            afterChange = verifyChain();
        } finally {
            SQL.update("UPDATE claimguard.finding SET detail = ? WHERE audit_id = ? AND ordinal = 2",
                    "critical_fact_count is 3; 2 critical claims were checked", auditId);
        }
        assertThat(afterChange.lines().get(0)).startsWith(altered);

        SQL.update("DELETE FROM claimguard.finding WHERE audit_id = ? AND ordinal = 1", auditId);
        ChainReport afterRemoval;
        try {
            afterRemoval = verifyChain();
        } finally {
            SQL.update("""
                    INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                    SELECT id, 1, 0, 'evidence.unknown_invocation', ?, audited_at
                    FROM claimguard.verification_audit WHERE id = ?""",
                    "source_invocation_ids 402 is not among the invocation_ids of trace-1 [394]", auditId);
        }
        assertThat(afterRemoval.lines().get(0)).startsWith(altered);

        // a row sealed without findings is covered too: a finding slipped in afterwards breaks its seal
        String withoutFindings = uniqueId("findings-none-sealed");
        long plainId = InputExchange.auditId(audit(Verifications.withFindings(
                Envelopes.clean().set("request_id", "'" + withoutFindings + "'").verify(), List.of())));
        await().atMost(PATIENCE).until(() -> sealed(withoutFindings));
        SQL.update("""
                INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                SELECT id, 0, NULL, 'consistency.groundedness_at_odds', 'slipped in', audited_at
                FROM claimguard.verification_audit WHERE id = ?""", plainId);
        ChainReport afterAddition;
        try {
            afterAddition = verifyChain();
        } finally {
            SQL.update("DELETE FROM claimguard.finding WHERE audit_id = ?", plainId);
        }
        assertThat(afterAddition.lines().get(0)).startsWith("audit_id=" + plainId + ": content altered");

        ChainReport restored = verifyChain();
        assertThat(restored.intact()).as(restored.lines().toString()).isTrue();
    }

    // ---- helpers

    private static Verification withThreeFindings(String requestId) {
        return Verifications.withFindings(Envelopes.clean().set("request_id", "'" + requestId + "'")
                .claimChecks(Envelopes.claimCheck("claim-1", "payment-service CPU usage is at 92%", "symptom",
                        "direct_observation"))
                .verify(), Verifications.threeFindings());
    }

    /** Through the service's audit writer, as the verify route hands it an input: the exchange afterwards. */
    private Exchange audit(Verification verification) throws Exception {
        Exchange exchange = new DefaultExchange(camel);
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.JMS, "ID:" + verification.requestId(),
                OffsetDateTime.now(), verification.envelope().json().getBytes(StandardCharsets.UTF_8), null, null));
        InputExchange.accept(exchange, verification);
        auditWriter.audit(exchange);
        return exchange;
    }

    private static ChainReport verifyChain() throws SQLException {
        try (Connection connection = DATABASE.connect()) {
            return AuditChainVerifier.verify(connection);
        }
    }
}
