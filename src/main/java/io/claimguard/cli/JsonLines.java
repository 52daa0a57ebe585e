package io.claimguard.cli;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.time.Instant;
import java.util.Base64;
import java.util.Enumeration;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.util.RawValue;

/** JSON for the tools' output: one compact document per line, so that {@code jq} and line-based tools can read it. */
final class JsonLines {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // numbers keep their digits when a body is parsed and written again
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    /** What {@link #describe} writes, for the tools' help. */
    static final String DESCRIBED = "One JSON line per message on standard output: {\"message_id\", \"timestamp\","
            + " \"properties\" (ClaimGuardRequestId, ClaimGuardVerdict, ClaimGuardAuditId, ClaimGuardSignatureKeyId,"
            + " ClaimGuardSignature and any other of the sender's), \"body_encoding\", \"body\"}. The body is embedded as"
            + " JSON when it is JSON text (\"body_encoding\": \"json\"; exactly as sent when it is one line, so that"
            + " verify-result can check its signature), else as a string (\"text\"); a BytesMessage's body is base64"
            + " (\"base64\").";

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

    /** One message as {@link #DESCRIBED}: its id, time, the sender's properties and its body. */
    static ObjectNode describe(Message message) throws JMSException {
        ObjectNode line = MAPPER.createObjectNode();
        line.put("message_id", message.getJMSMessageID());
        line.put("timestamp", message.getJMSTimestamp() == 0 ? null : Instant.ofEpochMilli(message.getJMSTimestamp()).toString());
        ObjectNode properties = line.putObject("properties");
        for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            // JMS's and the broker's own properties (JMSXDeliveryCount, _AMQ_...) are not the sender's
            if (!name.startsWith("JMS") && !name.startsWith("_")) {
                properties.set(name, MAPPER.valueToTree(message.getObjectProperty(name)));
            }
        }
        String text = text(message);
        byte[] bytes = bytes(message);
        JsonNode json = text == null ? null : parsed(text);
        if (json != null) {
            line.put("body_encoding", "json");
            if (isOneLine(text)) {
                // the text itself, not the parsed document written again: the signed bytes stay what they were
                line.putRawValue("body", new RawValue(text));
            } else {
                line.set("body", json);
            }
        } else if (text != null) {
            line.put("body_encoding", "text");
            line.put("body", text);
        } else if (bytes != null) {
            line.put("body_encoding", "base64");
            line.put("body", Base64.getEncoder().encodeToString(bytes));
        } else {
            line.put("body_encoding", "none");
            line.put("body", "(" + message.getClass().getSimpleName() + ": not shown)");
        }
        return line;
    }

    static boolean isOneLine(String text) {
        return text.indexOf('\n') < 0 && text.indexOf('\r') < 0;
    }
}
