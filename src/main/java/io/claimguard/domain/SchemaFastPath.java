package io.claimguard.domain;

import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Proves that an envelope is valid under the envelope schema without running the schema, for the common case of
 * a plainly valid envelope; it never proves the opposite. Whatever it cannot prove goes to the schema, which stays
 * the only authority for every rejection.
 *
 * <p>The proof holds only for the constraints in {@link #PROVEN_CONSTRAINTS}. The reader uses it only when the
 * loaded schema's constraints are exactly these, read with annotations and constraint-free subschemas left out
 * ({@link #constraints}); a schema edit that adds, removes or changes any constraint turns the fast path off,
 * and every envelope is validated by the schema again.
 */
final class SchemaFastPath {

    /** The schema's constraints that {@link #certainlyValid} proves. */
    static final JsonNode PROVEN_CONSTRAINTS = JsonMapper.builder().build().readTree("""
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "required": ["request_id", "verifier_output"],
              "properties": {
                "request_id": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,128}$"},
                "verifier_output": {"type": "object"}
              }
            }""");

    /** Keywords that annotate or identify a schema and constrain nothing in it. */
    private static final Set<String> ANNOTATIONS = Set.of(
            "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly");

    private static final int MAX_REQUEST_ID_LENGTH = 128;

    private SchemaFastPath() {
    }

    /** Whether {@link #certainlyValid} is a sound proof for this schema. */
    static boolean covers(JsonNode schema) {
        return PROVEN_CONSTRAINTS.equals(constraints(schema));
    }

    /**
     * The schema without annotations and without {@code properties} entries that constrain nothing (an empty
     * schema once its own annotations and empty entries are gone). Other subschemas are kept as they are, so that
     * any keyword this class does not prove makes {@link #covers} false.
     */
    static JsonNode constraints(JsonNode schema) {
        if (!schema.isObject()) {
            return schema;
        }
        ObjectNode pruned = ((ObjectNode) schema).deepCopy();
        for (String annotation : ANNOTATIONS) {
            pruned.remove(annotation);
        }
        JsonNode properties = pruned.get("properties");
        if (properties != null && properties.isObject()) {
            ObjectNode constrained = pruned.objectNode();
            for (Map.Entry<String, JsonNode> property : properties.properties()) {
                JsonNode value = constraints(property.getValue());
                boolean acceptsAnything = value.isObject() && value.isEmpty() || value.isBoolean() && value.booleanValue();
                if (!acceptsAnything) {
                    constrained.set(property.getKey(), value);
                }
            }
            if (constrained.isEmpty()) {
                pruned.remove("properties");
            } else {
                pruned.set("properties", constrained);
            }
        }
        return pruned;
    }

    /**
     * True only when the envelope certainly meets {@link #PROVEN_CONSTRAINTS}: an object whose {@code request_id} is
     * a string of 1 to 128 characters of {@code [A-Za-z0-9._:-]} and whose {@code verifier_output} is an object.
     * False means "ask the schema", not "invalid".
     */
    static boolean certainlyValid(JsonNode root) {
        if (!root.isObject()) {
            return false;
        }
        JsonNode requestId = root.get("request_id");
        JsonNode output = root.get("verifier_output");
        return requestId != null && requestId.isString() && isRequestId(requestId.stringValue())
                && output != null && output.isObject();
    }

    /** Every character is one of the set, all ASCII, so the length in characters is the length in code points. */
    private static boolean isRequestId(String value) {
        int length = value.length();
        if (length < 1 || length > MAX_REQUEST_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
