package io.claimguard.domain;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An accepted input: a JSON object with a valid {@code request_id} and a {@code verifier_output} object.
 * Every field is kept as received, also those the contract does not name.
 *
 * @param requestId the validated request id
 * @param json the JSON text as received (without a leading byte order mark)
 * @param root the parsed envelope
 */
public record Envelope(String requestId, String json, ObjectNode root) {

    /** The verifier's input; a missing node when absent or not an object, which reads as "every input absent". */
    public JsonNode verifierInput() {
        JsonNode input = root.path("verifier_input");
        return input.isObject() ? input : MissingNode.getInstance();
    }

    public ObjectNode verifierOutput() {
        return (ObjectNode) root.get("verifier_output");
    }
}
