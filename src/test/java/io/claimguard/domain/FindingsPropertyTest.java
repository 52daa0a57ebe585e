package io.claimguard.domain;

import static io.claimguard.domain.SeededCases.Weighted.weight;
import static io.claimguard.domain.SeededCases.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.domain.SeededCases.Gen;
import io.claimguard.testkit.Envelopes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Proves the property scenarios of openspec/specs/evidence-findings/spec.md over the envelopes of
 * {@link GeneratedEnvelopePropertyTest}, given evidence references, tool traces, executor claims, counts and scores
 * of every type, including the odd ones: numbers written differently, numbers too long to compare, values that are
 * not lists.
 */
class FindingsPropertyTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int TRIES = GeneratedEnvelopePropertyTest.TRIES;
    /** Every claim text starts with it, so that a detail quoting a claim text is caught. */
    private static final String CLAIM_TEXT_MARK = "CLAIM-TEXT";
    private static final int MAX_DETAIL_LENGTH = 400;

    private static final String DETERMINISTIC = "Findings are deterministic and never fail";
    private static final String ORDINALS = "Every finding names a claim check or the whole output";
    private static final String UNCHANGED = "Computing findings changes neither the projection nor the verdict";

    @Test
    @DisplayName("Scenario: Findings are deterministic and never fail")
    void findingsAreDeterministicAndNeverFail() {
        forAllEnvelopes(DETERMINISTIC, envelope -> {
            Verification verification = Verification.of(envelope);

            assertThat(Findings.of(Envelopes.read(envelope.json().getBytes(StandardCharsets.UTF_8)), verification.projection(),
                    verification.guard())).isEqualTo(verification.findings());
        });
    }

    @Test
    @DisplayName("Scenario: Every finding names a claim check or the whole output")
    void everyFindingNamesAClaimCheckOrTheWholeOutput() {
        forAllEnvelopes(ORDINALS, envelope -> {
            Verification verification = Verification.of(envelope);
            int claimChecks = verification.projection().claims().size();

            for (Finding finding : verification.findings()) {
                if (finding.claimOrdinal() != null) {
                    assertThat(finding.claimOrdinal()).as(finding.detail()).isBetween(0, claimChecks - 1);
                }
                assertThat(finding.detail()).hasSizeLessThanOrEqualTo(MAX_DETAIL_LENGTH).doesNotContain(CLAIM_TEXT_MARK);
            }
        });
    }

    @Test
    @DisplayName("Scenario: Computing findings changes neither the projection nor the verdict")
    void computingFindingsChangesNeitherTheProjectionNorTheVerdict() {
        forAllEnvelopes(UNCHANGED, envelope -> {
            ObjectNode asRead = envelope.root().deepCopy();

            Verification verification = Verification.of(envelope);

            Projection projection = LegacyProjection.project(envelope.verifierOutput());
            assertThat(verification.projection()).isEqualTo(projection);
            assertThat(verification.guard()).isEqualTo(VerdictGuard.decide(envelope, projection));
            assertThat(envelope.root()).isEqualTo(asRead);
        });
    }

    /** Keeps the generator honest: in the cases of each property, every finding code is found and some envelopes have none. */
    @Test
    @DisplayName("Generated envelopes cover every finding code and envelopes without findings")
    void generatedEnvelopesCoverEveryFindingCode() {
        for (String property : List.of(DETERMINISTIC, ORDINALS, UNCHANGED)) {
            Map<FindingCode, Integer> found = new EnumMap<>(FindingCode.class);
            int withoutFindings = 0;
            for (Envelope envelope : SeededCases.generate(property, TRIES, FindingsPropertyTest::envelope)) {
                List<Finding> findings = Verification.of(envelope).findings();
                findings.forEach(finding -> found.merge(finding.code(), 1, Integer::sum));
                withoutFindings += findings.isEmpty() ? 1 : 0;
            }
            String seed = " in the cases of \"" + property + "\", base seed " + SeededCases.baseSeed();
            for (FindingCode code : FindingCode.values()) {
                assertThat(found.getOrDefault(code, 0)).as("findings %s%s", code, seed).isGreaterThanOrEqualTo(TRIES / 100);
            }
            assertThat(withoutFindings).as("envelopes without findings%s", seed).isGreaterThanOrEqualTo(TRIES / 50);
        }
    }

    private static void forAllEnvelopes(String property, Consumer<Envelope> check) {
        forAll(property, TRIES, FindingsPropertyTest::envelope, Envelope::json, check);
    }

    // ---- generators ----

    /** A generated envelope given evidence, traces, executor claims, a count and a score, read by the real reader. */
    static Envelope envelope(Gen gen) {
        ObjectNode root = (ObjectNode) Envelopes.json(GeneratedEnvelopePropertyTest.envelope(gen).json());
        ObjectNode input = root.withObjectProperty("verifier_input");
        ObjectNode output = root.withObjectProperty("verifier_output");
        optionalValue(gen, input, "tool_trace_summary", () -> gen.frequency(
                weight(8, () -> list(gen, 0, 4, () -> trace(gen))),
                weight(1, () -> NODES.objectNode().put("trace_ref", "trace-1"))));
        JsonNode claimChecks = output.path("claim_checks");
        if (claimChecks.isArray()) {
            for (JsonNode check : claimChecks.values()) {
                ((ObjectNode) check).put("claim_text", CLAIM_TEXT_MARK + " " + ((ObjectNode) check).path("claim_text").stringValue());
                optionalValue(gen, (ObjectNode) check, "evidence_refs", () -> gen.frequency(
                        weight(8, () -> list(gen, 0, 3, () -> evidenceRef(gen))),
                        weight(1, () -> evidenceRef(gen))));
            }
        }
        optionalValue(gen, input, "executor_structured_output", () -> NODES.objectNode().set("claims", gen.frequency(
                weight(8, () -> list(gen, 0, 6, () -> {
                    ObjectNode claim = NODES.objectNode();
                    optionalValue(gen, claim, "claim_id", () -> gen.frequency(
                            weight(8, () -> NODES.stringNode("claim-" + gen.between(1, 99))),
                            weight(1, () -> NODES.numberNode(gen.between(1, 99)))));
                    claim.put("claim_text", CLAIM_TEXT_MARK + " made by the executor");
                    return claim;
                })),
                weight(1, () -> NODES.stringNode("claim-1")))));
        optionalValue(gen, output, "critical_fact_count", () -> gen.frequency(
                weight(8, () -> NODES.numberNode(gen.between(0, 6))),
                weight(1, () -> NODES.numberNode(new BigDecimal(gen.between(0, 6) + ".0"))),
                weight(1, () -> gen.pick(NODES.stringNode("3"), NODES.numberNode(new BigDecimal("2.5")), odd(gen)))));
        optionalValue(gen, output, "groundedness_score", () -> gen.frequency(
                weight(8, () -> NODES.numberNode(BigDecimal.valueOf(gen.between(0, 100), 2))),
                weight(2, () -> gen.pick(NODES.numberNode(new BigDecimal("1.01")), NODES.numberNode(-1), NODES.stringNode("0.9"))),
                weight(1, () -> odd(gen))));
        return Envelopes.read(root.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode trace(Gen gen) {
        ObjectNode trace = NODES.objectNode();
        optionalValue(gen, trace, "trace_ref", () -> gen.frequency(weight(8, () -> traceRef(gen)), weight(1, () -> odd(gen))));
        optionalValue(gen, trace, "tool_name", () -> toolName(gen));
        optionalValue(gen, trace, "invocation_ids", () -> invocationIds(gen));
        return trace;
    }

    private static JsonNode evidenceRef(Gen gen) {
        if (gen.chance(0.05)) {
            return gen.pick(NODES.stringNode("trace-1"), odd(gen));
        }
        ObjectNode ref = NODES.objectNode();
        optionalValue(gen, ref, "trace_ref", () -> gen.frequency(weight(12, () -> traceRef(gen)), weight(1, () -> odd(gen))));
        optionalValue(gen, ref, "tool_name", () -> toolName(gen));
        optionalValue(gen, ref, "source_invocation_ids", () -> invocationIds(gen));
        return ref;
    }

    private static JsonNode traceRef(Gen gen) {
        return NODES.stringNode("trace-" + gen.between(1, 4));
    }

    private static JsonNode toolName(Gen gen) {
        return gen.frequency(
                weight(8, () -> NODES.stringNode(gen.pick("query_metrics", "list_deployments"))),
                weight(1, () -> odd(gen)));
    }

    /** A list of ids, or now and then one id that is not in a list. */
    private static JsonNode invocationIds(Gen gen) {
        return gen.frequency(weight(8, () -> list(gen, 0, 3, () -> invocationId(gen))), weight(1, () -> invocationId(gen)));
    }

    /** Mostly 394 to 397, written as integers or with a fraction of zeros; now and then anything. */
    private static JsonNode invocationId(Gen gen) {
        int id = gen.between(394, 397);
        return gen.frequency(
                weight(8, () -> NODES.numberNode(id)),
                weight(2, () -> NODES.numberNode(new BigDecimal(id + ".0"))),
                weight(1, () -> NODES.stringNode(String.valueOf(id))),
                weight(1, () -> odd(gen)));
    }

    /** A value nobody should send: another type, an extreme number, a number too long to compare, a long text. */
    private static JsonNode odd(Gen gen) {
        return gen.pick(
                NODES.nullNode(),
                NODES.booleanNode(true),
                NODES.objectNode().put("id", 394),
                NODES.arrayNode().add(394),
                NODES.numberNode(new BigDecimal("1e-999999999")),
                NODES.numberNode(new BigDecimal("1e999999999")),
                NODES.numberNode(new BigInteger("394" + "0".repeat(300))),
                NODES.numberNode(new BigDecimal("394." + "0".repeat(300))),
                NODES.stringNode("x".repeat(500) + "\u0000\u2028漢字"));
    }

    private static ArrayNode list(Gen gen, int min, int max, Supplier<JsonNode> element) {
        return NODES.arrayNode().addAll(gen.list(min, max, element));
    }

    /** Sets the field to a generated value, or leaves it out, or sets null, now and then. */
    private static void optionalValue(Gen gen, ObjectNode parent, String field, Supplier<JsonNode> value) {
        gen.frequency(
                weight(16, () -> parent.set(field, value.get())),
                weight(1, () -> parent.remove(field)),
                weight(1, () -> parent.set(field, NODES.nullNode())));
    }
}
