package io.claimguard.audit;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON as PostgreSQL's {@code jsonb} can store it. Every envelope the reader accepts is audited, but jsonb refuses
 * things valid JSON may hold: the escapes of U+0000 and of lone surrogates in strings or names (stored as
 * {@link Text} stores them), numbers beyond the range of {@code numeric} (more than 131,072 digits before the
 * decimal point or 16,383 after it), which are stored as strings of their digits, and exponents of 1,000 or more
 * however small the number (written out in full instead). A document with none of these, which is almost every
 * one, is stored exactly as it came.
 */
final class StorableJson {

    /** The limits of PostgreSQL's numeric type, which jsonb numbers are. */
    private static final int NUMERIC_MAX_INTEGER_DIGITS = 131_072;
    private static final int NUMERIC_MAX_FRACTION_DIGITS = 16_383;

    /**
     * Text jsonb refuses or may refuse: an escaped U+0000 or surrogate (also one a duplicate name hides from the
     * parsed document, which jsonb still reads), and an exponent of 1,000 or more. A match in a harmless place
     * (an escaped backslash before "u0000", a surrogate pair, "e1000" in a string) only costs a re-serialisation.
     */
    private static final Pattern MAY_BE_REFUSED =
            Pattern.compile("\\\\u(?:0000|[dD][89a-fA-F])|[eE][+-]?0*[1-9][0-9]{3}");

    /** Writes numbers in full: jsonb refuses an exponent of 1,000 or more, whatever the value. */
    static final JsonMapper MAPPER = JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StorableJson() {
    }

    /** The text to store for a document: {@code asReceived} itself when jsonb can hold it, else a storable copy. */
    static String text(JsonNode document, String asReceived) {
        return isStorable(document) && !MAY_BE_REFUSED.matcher(asReceived).find() ? asReceived : text(document);
    }

    /** The text to store for a document built here. */
    static String text(JsonNode document) {
        return MAPPER.writeValueAsString(node(document));
    }

    /** The node itself when jsonb can hold it, else a storable copy. */
    static JsonNode node(JsonNode document) {
        return document == null || isStorable(document) ? document : copy(document);
    }

    static boolean isStorable(JsonNode node) {
        if (node.isString()) {
            return Text.isStorable(node.stringValue());
        }
        if (node.isNumber()) {
            return isStorableNumber(node);
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                if (!isStorable(element)) {
                    return false;
                }
            }
            return true;
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (!Text.isStorable(field.getKey()) || !isStorable(field.getValue())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isStorableNumber(JsonNode number) {
        if (number.isBigDecimal()) {
            BigDecimal value = number.decimalValue();
            return value.precision() - value.scale() <= NUMERIC_MAX_INTEGER_DIGITS && value.scale() <= NUMERIC_MAX_FRACTION_DIGITS;
        }
        if (number.isBigInteger()) {
            return number.bigIntegerValue().abs().toString().length() <= NUMERIC_MAX_INTEGER_DIGITS;
        }
        return true;
    }

    private static JsonNode copy(JsonNode node) {
        if (node.isString()) {
            return NODES.stringNode(Text.column(node.stringValue()));
        }
        if (node.isNumber()) {
            return isStorableNumber(node) ? node : NODES.stringNode(numberText(node));
        }
        if (node.isArray()) {
            ArrayNode array = NODES.arrayNode(node.size());
            node.forEach(element -> array.add(copy(element)));
            return array;
        }
        if (node.isObject()) {
            ObjectNode object = NODES.objectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                object.set(Text.column(field.getKey()), copy(field.getValue()));
            }
            return object;
        }
        return node;
    }

    private static String numberText(JsonNode number) {
        return number.isBigDecimal() ? number.decimalValue().toString() : number.bigIntegerValue().toString();
    }
}
