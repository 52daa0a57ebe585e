package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.audit.AuditWriter;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.testkit.ExplorerClient;
import io.claimguard.testkit.LargeAudits;
import java.time.OffsetDateTime;
import java.util.Locale;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit explorer's page of an audit of 20,000 claim checks (and 2,000 findings): one page of each, links to the
 * rest, the envelope and the effective result a link away, streamed. The envelope, about 7 MB, is over the service's
 * size limit, so it is read with a larger one and audited by the service's own audit writer, as the verify route hands
 * it an input: the rows are the ones the service writes, sealed by it. The page's size and answer time are logged.
 */
class LargeAuditPageIT extends ServiceTestSupport {

    private static final Logger LOG = LoggerFactory.getLogger(LargeAuditPageIT.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int CLAIMS = 20_000;
    private static final int ROWS = 100;

    private static long auditId;

    @Autowired
    CamelContext camel;

    @Autowired
    AuditWriter auditWriter;

    @BeforeEach
    void auditOnce() throws Exception {
        if (auditId != 0) {
            return;
        }
        String requestId = uniqueId("large-audit");
        byte[] envelope = LargeAudits.envelopeWithClaims(requestId, CLAIMS);
        Verification verification = Verification.of(new EnvelopeReader(new Limits(16 * 1024 * 1024, 64)).read(envelope));
        Exchange exchange = new DefaultExchange(camel);
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.FILE, requestId + ".json",
                OffsetDateTime.now(), envelope, null, null));
        InputExchange.accept(exchange, verification);
        auditWriter.audit(exchange);
        auditId = InputExchange.auditId(exchange);
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        LOG.info("audit {}: {} claim checks from an envelope of {} bytes", auditId, CLAIMS, envelope.length);
    }

    @Test
    @DisplayName("Scenario: An audit of 20,000 claim checks opens as one small page with links to the rest")
    void onePageWithLinks() {
        ExplorerClient explorer = ExplorerClient.logIn(managementPort);
        explorer.get("/explorer/audits/" + auditId);
        ExplorerClient.Page page = explorer.get("/explorer/audits/" + auditId);
        LOG.info(String.format(Locale.ROOT, "audit page of %,d claim checks: %,d bytes of HTML in %d ms", CLAIMS,
                page.body().length, page.took().toMillis()));

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body().length).as("the page's HTML, in bytes").isLessThan(1_000_000);
        String html = page.text();
        assertThat(html).contains("claim checks #0 to #99 of 20000").contains(LargeAudits.claimText(0))
                .contains(LargeAudits.claimText(ROWS - 1)).doesNotContain(LargeAudits.claimText(ROWS))
                .contains("href=\"/explorer/audits/" + auditId + "?claims_from=100#claims\"")
                .contains("href=\"/explorer/audits/" + auditId + "?claims_from=19900#claims\"")
                .contains("findings #0 to #99 of 2000")
                .contains("href=\"/explorer/audits/" + auditId + "?findings_from=100#findings\"")
                .contains("href=\"/explorer/audits/" + auditId + "/envelope.json\"")
                .contains("href=\"/explorer/audits/" + auditId + "/effective-result.json\"")
                .contains("id=\"envelope-large\"").contains("id=\"effective-result-large\"")
                .doesNotContain("id=\"envelope\"").doesNotContain("\"rationale\"");
        assertThat(html).contains("id=\"seal-unchecked\"").contains("not verified on this page")
                .contains("href=\"/explorer/audits/" + auditId + "?verify_seal=true#seal\"");
        String verified = explorer.get("/explorer/audits/" + auditId + "?verify_seal=true").text();
        assertThat(verified).contains("sealed (seq").contains("): verifies").doesNotContain("seal-unchecked");

        String next = explorer.get("/explorer/audits/" + auditId + "?claims_from=100&findings_from=100").text();
        assertThat(next).contains("claim checks #100 to #199 of 20000").contains(LargeAudits.claimText(ROWS))
                .contains(LargeAudits.claimText(2 * ROWS - 1)).doesNotContain(LargeAudits.claimText(ROWS - 1))
                .doesNotContain(LargeAudits.claimText(2 * ROWS))
                .contains("href=\"/explorer/audits/" + auditId + "?findings_from=100#claims\"")
                .contains("href=\"/explorer/audits/" + auditId + "?claims_from=200&amp;findings_from=100#claims\"")
                .contains("findings #100 to #199 of 2000");
        String last = explorer.get("/explorer/audits/" + auditId + "?claims_from=19900").text();
        assertThat(last).contains("claim checks #19900 to #19999 of 20000").contains(LargeAudits.claimText(CLAIMS - 1))
                .doesNotContain("claims-next");
    }

    @Test
    @DisplayName("Scenario: The envelope and the effective result of a large audit are streamed through their links")
    void documentsThroughTheirLinks() {
        ExplorerClient explorer = ExplorerClient.logIn(managementPort);
        ExplorerClient.Page envelope = explorer.get("/explorer/audits/" + auditId + "/envelope.json");
        LOG.info(String.format(Locale.ROOT, "envelope.json of %,d claim checks: %,d bytes in %d ms", CLAIMS,
                envelope.body().length, envelope.took().toMillis()));
        assertThat(envelope.status()).isEqualTo(200);
        JsonNode stored = JSON.readTree(envelope.body());
        assertThat(stored.at("/verifier_output/claim_checks").size()).isEqualTo(CLAIMS);
        assertThat(stored.at("/verifier_output/claim_checks/19999/claim_text").asString())
                .isEqualTo(LargeAudits.claimText(CLAIMS - 1));
        assertThat(stored.has("effective_result")).isFalse();

        ExplorerClient.Page result = explorer.get("/explorer/audits/" + auditId + "/effective-result.json");
        assertThat(result.status()).isEqualTo(200);
        JsonNode effective = JSON.readTree(result.body());
        assertThat(effective.get("audit_id").asLong()).isEqualTo(auditId);
        assertThat(effective.get("facts_checked").size()).isEqualTo(CLAIMS);
        assertThat(effective.get("findings").size()).isEqualTo(CLAIMS / LargeAudits.FINDING_EVERY);

        assertThat(explorer.get("/explorer/audits/987654321/envelope.json").status()).isEqualTo(404);
    }
}
