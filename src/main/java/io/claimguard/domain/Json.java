package io.claimguard.domain;

import tools.jackson.databind.JsonNode;

/** Small readers for JSON values whose type the producer may have got wrong. */
final class Json {

    private Json() {
    }

    /** Absent and null both count as "not emitted". */
    static boolean isAbsent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    /** A string as itself, another scalar or a container as its JSON text, absent or null as null. */
    static String text(JsonNode node) {
        if (isAbsent(node)) {
            return null;
        }
        return node.isString() ? node.stringValue() : node.toString();
    }

    /** A string value, or null when the node is absent or not a string. */
    static String string(JsonNode node) {
        return node != null && node.isString() ? node.stringValue() : null;
    }
}
