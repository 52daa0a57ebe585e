package io.claimguard.cli;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/** JSON for the tools' output: one compact document per line, so that {@code jq} and line-based tools can read it. */
final class JsonLines {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // numbers keep their digits when a body is parsed and written again
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private JsonLines() {
    }

    /** The value as one line of JSON. */
    static String line(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** The text parsed as JSON; null when it is not JSON text. */
    static JsonNode parsed(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** The message's body: the text of a TextMessage; null for any other type. */
    static String text(Message message) throws JMSException {
        return message instanceof TextMessage text ? text.getText() : null;
    }

    /** The body of a BytesMessage; null for any other type. */
    static byte[] bytes(Message message) throws JMSException {
        if (message instanceof BytesMessage bytes) {
            byte[] content = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(content);
            return content;
        }
        return null;
    }
}
