package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import jakarta.jms.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The README's examples, as a new user would try them: dropped into the inbox, found in the tables and outputs. */
class ExamplesIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final EnvelopeReader READER = new EnvelopeReader(Limits.DEFAULTS);

    @Test
    @DisplayName("Scenario: Every example envelope reaches the tables and both outputs")
    void everyExampleReachesTheTablesAndBothOutputs() throws Exception {
        List<Path> examples;
        try (Stream<Path> files = Files.list(Path.of("examples"))) {
            examples = files.filter(path -> path.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(examples).as("examples/*.json").isNotEmpty();
        for (Path example : examples) {
            dropFile("example-" + example.getFileName(), Files.readAllBytes(example));
        }

        for (Path example : examples) {
            Verification expected = Verification.of(READER.read(Files.readAllBytes(example)));
            String sourceRef = "example-" + example.getFileName();
            await().atMost(PATIENCE).until(() -> !rowsFor(sourceRef).isEmpty());
            Map<String, Object> row = rowsFor(sourceRef).get(0);
            long auditId = ((Number) row.get("id")).longValue();
            assertThat(row).as(example.toString())
                    .containsEntry("request_id", expected.requestId())
                    .containsEntry("effective_verdict", expected.guard().effectiveVerdict().name())
                    .containsEntry("model_verdict", expected.guard().modelVerdict().map(Enum::name).orElse(null))
                    .containsEntry("downgraded", expected.guard().downgraded())
                    .containsEntry("projection_mode", expected.projection().mode().label())
                    .containsEntry("guard_reasons", String.join(",", expected.guard().reasonCodes()));
            assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.claim_check WHERE audit_id = ?", Long.class,
                    auditId)).isEqualTo(expected.projection().claims().size());
            assertThat(findingRows(auditId)).as("finding rows of " + example)
                    .extracting(finding -> Arrays.asList(finding.get("claim_ordinal"), finding.get("code"), finding.get("detail")))
                    .containsExactlyElementsOf(expected.findings().stream()
                            .map(finding -> Arrays.<Object>asList(finding.claimOrdinal(), finding.code().code(), finding.detail()))
                            .toList());

            Path outboxFile = OUTBOX.resolve(expected.requestId() + "." + auditId + ".json");
            await().atMost(PATIENCE).until(() -> Files.exists(outboxFile));
            assertThat(JSON.readTree(Files.readString(outboxFile)))
                    .isEqualTo(JSON.readTree(EffectiveResult.toJson(expected, auditId)));
            Message message = receiveResult(expected.requestId());
            assertThat(message).as("output message for " + example).isNotNull();
            assertThat(JSON.readTree(text(message)).get("audit_id").asLong()).isEqualTo(auditId);
        }
    }

    private static List<Map<String, Object>> rowsFor(String sourceRef) {
        return SQL.queryForList("SELECT id, request_id, effective_verdict, model_verdict, downgraded, projection_mode,"
                + " array_to_string(guard_reasons, ',') AS guard_reasons FROM claimguard.verification_audit"
                + " WHERE source = 'file' AND source_ref = ?", sourceRef);
    }
}
