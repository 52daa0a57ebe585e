package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.claimguard.testkit.Envelopes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The schema fast path may only ever prove validity: wherever it says "valid", the schema says so too, and it is
 * on only for a schema whose constraints are exactly those it proves.
 */
class SchemaFastPathTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();
    private static final JsonNode SCHEMA_JSON = shippedSchema();
    /** Loaded here as the reader loads it, so that the test asks the schema itself. */
    private static final Schema SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(SCHEMA_JSON);

    @Test
    @DisplayName("The shipped envelope schema is covered by the fast path")
    void shippedSchemaIsCovered() {
        assertThat(SchemaFastPath.covers(SCHEMA_JSON)).isTrue();
        assertThat(Envelopes.READER.usesSchemaFastPath()).isTrue();
    }

    @Test
    @DisplayName("Annotations and constraint-free properties do not turn the fast path off")
    void annotationsKeepTheFastPath() {
        assertThat(SchemaFastPath.covers(edited(schema -> {
            schema.put("description", "another description");
            schema.put("$comment", "reviewed");
            output(schema).putObject("model").put("description", "the verifier's model");
            schema.withObjectProperty("properties").putObject("producer").put("title", "who sent it");
            properties(schema, "verifier_input").putObject("trace_budget_ms").put("description", "ms").putArray("examples").add(20);
        }))).isTrue();
    }

    @Test
    @DisplayName("Any other schema edit turns the fast path off")
    void constraintEditsTurnTheFastPathOff() {
        List<Consumer<ObjectNode>> edits = List.of(
                schema -> output(schema).putObject("verdict").putArray("enum").add("PASS").add("LOW_CONFID").add("REJECT"),
                schema -> output(schema).putObject("claim_checks").put("type", "array"),
                schema -> schema.withObjectProperty("properties").withObjectProperty("request_id").put("maxLength", 64),
                schema -> schema.withObjectProperty("properties").withObjectProperty("request_id").put("pattern", "^[a-z-]{1,128}$"),
                schema -> schema.withObjectProperty("properties").withObjectProperty("request_id").remove("pattern"),
                schema -> schema.withArrayProperty("required").add("verifier_input"),
                schema -> schema.withArrayProperty("required").remove(1),
                schema -> schema.put("additionalProperties", false),
                schema -> schema.put("unevaluatedProperties", false),
                schema -> schema.withObjectProperty("properties").withObjectProperty("verifier_input").put("type", "object"),
                schema -> properties(schema, "verifier_input").putObject("gatekeeper_result").put("type", "object"),
                schema -> properties(schema, "verifier_input").put("retry_context", false),
                schema -> schema.withObjectProperty("properties").withObjectProperty("verifier_output").put("minProperties", 1),
                schema -> schema.withObjectProperty("properties").withObjectProperty("verifier_output").put("type", "array"),
                schema -> schema.putObject("$defs").putObject("id").put("type", "string"),
                schema -> schema.putArray("allOf").addObject().putArray("required").add("producer"),
                schema -> schema.put("$schema", "http://json-schema.org/draft-07/schema#"));
        for (Consumer<ObjectNode> edit : edits) {
            ObjectNode schema = edited(edit);
            assertThat(SchemaFastPath.covers(schema)).as("fast path for %s", schema).isFalse();
        }
    }

    @Test
    @DisplayName("The fast path proves a request id valid exactly when the schema does")
    void requestIdsAgreeWithTheSchema() {
        List<String> requestIds = new ArrayList<>(List.of("", "a", "req-1\n", "\nreq-1", " req-1", "req-1 ", "Chat_2026-12-02.req:42",
                "a".repeat(127), "a".repeat(128), "a".repeat(129), "é", "\uD83D\uDE00", "a\u0000", "req/1", "ｒｅｑ", "K\u212A"));
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            requestIds.add(String.valueOf(c));
            requestIds.add("r" + c);
        }
        for (String requestId : requestIds) {
            ObjectNode envelope = NODES.objectNode().put("request_id", requestId);
            envelope.putObject("verifier_output");
            boolean schemaValid = SCHEMA.validate(envelope).isEmpty();
            if (SchemaFastPath.certainlyValid(envelope) != schemaValid) {
                throw new AssertionError("fast path and schema disagree on request id " + NODES.stringNode(requestId)
                        + ": the schema says " + (schemaValid ? "valid" : "invalid"));
            }
        }
    }

    @Test
    @DisplayName("The fast path says valid only where the schema does, on crafted envelopes")
    void craftedEnvelopesNeverPassTheFastPathAlone() {
        List<String> envelopes = List.of(
                "{\"request_id\": \"req-1\", \"verifier_output\": {}}",
                "{\"request_id\": \"req-1\", \"verifier_output\": []}",
                "{\"request_id\": \"req-1\", \"verifier_output\": null}",
                "{\"request_id\": \"req-1\", \"verifier_output\": \"PASS\"}",
                "{\"request_id\": \"req-1\"}",
                "{\"verifier_output\": {}}",
                "{\"request_id\": null, \"verifier_output\": {}}",
                "{\"request_id\": 42, \"verifier_output\": {}}",
                "{\"request_id\": [\"req-1\"], \"verifier_output\": {}}",
                "{\"request_id\": \"req-1\", \"verifier_output\": {}, \"verifier_input\": \"odd\"}",
                "{\"request_id\": \"req-first\", \"request_id\": \"req/last\", \"verifier_output\": {}}",
                "{\"request_id\": \"req/first\", \"request_id\": \"req-last\", \"verifier_output\": {}}",
                "[{\"request_id\": \"req-1\", \"verifier_output\": {}}]",
                "\"req-1\"",
                "42",
                "null");
        for (String envelope : envelopes) {
            assertSound(MAPPER.readTree(envelope));
        }
    }

    @Test
    @DisplayName("The fast path says valid only where the schema does, on generated, mutated and arbitrary inputs")
    void generatedInputsNeverPassTheFastPathAlone() {
        SeededCases.forAll("Fast path on generated envelopes", GeneratedEnvelopePropertyTest.TRIES,
                GeneratedEnvelopePropertyTest::envelope, GeneratedEnvelopePropertyTest.GeneratedEnvelope::json, generated -> {
                    JsonNode root = MAPPER.readTree(generated.bytes());
                    // every generated envelope is valid, so the fast path must prove it: otherwise it would save nothing
                    assertThat(SchemaFastPath.certainlyValid(root)).isTrue();
                    assertSound(root);
                });
        SeededCases.forAll("Fast path on mutated envelopes", GeneratedEnvelopePropertyTest.TRIES,
                gen -> new GeneratedEnvelopePropertyTest.MutatedEnvelope(
                        GeneratedEnvelopePropertyTest.envelope(gen), GeneratedEnvelopePropertyTest.mutations(gen)).bytes(),
                GeneratedEnvelopePropertyTest::printable, SchemaFastPathTest::assertSoundIfJson);
        SeededCases.forAll("Fast path on arbitrary bytes", GeneratedEnvelopePropertyTest.TRIES,
                GeneratedEnvelopePropertyTest::arbitraryInput, GeneratedEnvelopePropertyTest::printable, SchemaFastPathTest::assertSoundIfJson);
    }

    private static void assertSoundIfJson(byte[] input) {
        JsonNode root;
        try {
            root = MAPPER.readTree(input);
        } catch (JacksonException | NumberFormatException notJson) {
            return;
        }
        if (root != null) {
            assertSound(root);
        }
    }

    private static void assertSound(JsonNode root) {
        if (SchemaFastPath.certainlyValid(root)) {
            assertThat(SCHEMA.validate(root)).as("schema findings on an envelope the fast path proved valid: %s", root).isEmpty();
        }
    }

    private static ObjectNode edited(Consumer<ObjectNode> edit) {
        ObjectNode schema = (ObjectNode) SCHEMA_JSON.deepCopy();
        edit.accept(schema);
        return schema;
    }

    private static ObjectNode output(ObjectNode schema) {
        return properties(schema, "verifier_output");
    }

    private static ObjectNode properties(ObjectNode schema, String field) {
        return schema.withObjectProperty("properties").withObjectProperty(field).withObjectProperty("properties");
    }

    private static JsonNode shippedSchema() {
        try (InputStream in = SchemaFastPathTest.class.getResourceAsStream(EnvelopeReader.SCHEMA_RESOURCE)) {
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
