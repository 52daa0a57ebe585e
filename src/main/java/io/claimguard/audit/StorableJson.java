package io.claimguard.audit;

import java.math.BigDecimal;
import java.util.Map;
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

    /** Writes numbers in full: jsonb refuses an exponent of 1,000 or more, whatever the value. */
    static final JsonMapper MAPPER = JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StorableJson() {
    }

    /** The text to store for a document: {@code asReceived} itself when jsonb can hold it, else a storable copy. */
    static String text(JsonNode document, String asReceived) {
        return isStorable(document) && !mayBeRefused(asReceived) ? asReceived : text(document);
    }

    /** The text to store for a document built here. */
    static String text(JsonNode document) {
        return MAPPER.writeValueAsString(node(document));
    }

    /** The node itself when jsonb can hold it, else a storable copy. */
    static JsonNode node(JsonNode document) {
        return document == null || isStorable(document) ? document : copy(document);
    }

    /**
     * Whether the text holds what jsonb refuses or may refuse: an escaped U+0000 or surrogate (also one a duplicate
     * name hides from the parsed document, which jsonb still reads), or an exponent of 1,000 or more. A match in a
     * harmless place (an escaped backslash before "u0000", a surrogate pair, "e1000" inside a string) only costs a
     * re-serialisation. A plain scan: this runs on every input, and a regular expression costs ten times more.
     */
    static boolean mayBeRefused(String text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 5 < length && text.charAt(i + 1) == 'u') {
                char first = text.charAt(i + 2);
                if (first == 'd' || first == 'D') {
                    char second = text.charAt(i + 3);
                    if ((second >= '8' && second <= '9') || (second >= 'a' && second <= 'f') || (second >= 'A' && second <= 'F')) {
                        return true;
                    }
                } else if (first == '0' && text.startsWith("000", i + 3)) {
                    return true;
                }
            } else if ((c == 'e' || c == 'E') && hasLargeExponent(text, i + 1)) {
                return true;
            }
        }
        return false;
    }

    /** At {@code start}: an optional sign, optional leading zeros, then four or more digits, the first not zero. */
    private static boolean hasLargeExponent(String text, int start) {
        int i = start;
        int length = text.length();
        if (i < length && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            i++;
        }
        while (i < length && text.charAt(i) == '0') {
            i++;
        }
        int digits = 0;
        while (i < length && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            digits++;
            i++;
        }
        return digits >= 4;
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
