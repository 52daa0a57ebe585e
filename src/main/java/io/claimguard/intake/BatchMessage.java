package io.claimguard.intake;

import io.claimguard.domain.RejectionReason;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.Redrive;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import org.apache.activemq.artemis.api.core.ActiveMQBuffer;
import org.apache.activemq.artemis.api.core.ActiveMQBuffers;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.reader.TextMessageUtil;

/**
 * One message of a batch, read as it came, on the consumer's thread (a large message's body must be read before the
 * next message is received). Reading never fails: a message that carries no envelope is an input all the same,
 * rejected with a reason at its first delivery.
 *
 * @param message the message as the broker delivered it, acknowledged when the batch commits
 * @param sourceRef its JMS message id ({@code ID:} and the producer's id), or for a message sent without one the
 *     broker's id of it, stable across redeliveries
 * @param receivedAt when ClaimGuard took it
 * @param rawBody the body exactly as the broker holds it, for the dead-letter copy
 * @param payload the input: a TextMessage's text as UTF-8, a BytesMessage's bytes, otherwise the raw body
 * @param rejection why it carries no envelope; null for a text or bytes message
 * @param redrive the dead letter it was re-driven from, as its {@link Redrive#PROPERTY} names it
 * @param traceparent its {@link ReceivedInput#TRACEPARENT} property as text (an AMQP application property arrives as
 *     the same property); null when it has none
 */
record BatchMessage(ClientMessage message, String sourceRef, OffsetDateTime receivedAt, byte[] rawBody, byte[] payload,
        DeadLetter rejection, Redrive.Link redrive, String traceparent) {

    private static final SimpleString REDRIVE_PROPERTY = SimpleString.of(Redrive.PROPERTY);
    private static final SimpleString TRACEPARENT_PROPERTY = SimpleString.of(ReceivedInput.TRACEPARENT);

    /** How a text body starts: null or not, then (not null) the length in bytes of its UTF-16 data. */
    private static final int TEXT_HEADER_BYTES = 1 + Integer.BYTES;

    static BatchMessage read(ClientMessage message) throws ActiveMQException {
        OffsetDateTime receivedAt = OffsetDateTime.now();
        String sourceRef = message.getUserID() != null
                ? "ID:" + message.getUserID()
                : "no-message-id:" + message.getMessageID();
        byte[] raw = rawBody(message);
        Redrive.Link redrive = Redrive.parse(message.getObjectProperty(REDRIVE_PROPERTY));
        Object traceProperty = message.getObjectProperty(TRACEPARENT_PROPERTY);
        String traceparent = traceProperty == null ? null : traceProperty.toString();
        return switch (message.getType()) {
            case Message.BYTES_TYPE -> new BatchMessage(message, sourceRef, receivedAt, raw, raw, null, redrive, traceparent);
            case Message.TEXT_TYPE -> {
                String undecodable = textProblem(raw);
                yield undecodable == null
                        ? new BatchMessage(message, sourceRef, receivedAt, raw, text(raw), null, redrive, traceparent)
                        : new BatchMessage(message, sourceRef, receivedAt, raw, raw, new DeadLetter(
                                RejectionReason.MESSAGE_BODY_UNDECODABLE, "a TextMessage whose body is not a text the"
                                        + " JMS client can decode (" + undecodable + "); its " + raw.length
                                        + " bytes are kept as the broker holds them"), redrive, traceparent);
            }
            default -> new BatchMessage(message, sourceRef, receivedAt, raw, raw, new DeadLetter(
                    RejectionReason.MESSAGE_TYPE_UNSUPPORTED,
                    typeName(message.getType()) + " carries no envelope: ClaimGuard takes a TextMessage or a BytesMessage"), redrive, traceparent);
        };
    }

    /**
     * The type of its dead-letter copy: its own, except that a text that cannot be decoded goes as a BytesMessage of
     * the same bytes, so that whoever reads the dead-letter queue with a JMS client can receive it.
     */
    byte copyType() {
        return rejection != null && rejection.reason() == RejectionReason.MESSAGE_BODY_UNDECODABLE
                ? Message.BYTES_TYPE
                : message.getType();
    }

    /** The body's bytes without decoding them; a large message's are streamed in whole. */
    private static byte[] rawBody(ClientMessage message) throws ActiveMQException {
        if (message.isLargeMessage()) {
            ByteArrayOutputStream body = new ByteArrayOutputStream(Math.max(0, message.getBodySize()));
            message.saveToOutputStream(body);
            return body.toByteArray();
        }
        ActiveMQBuffer body = message.getReadOnlyBodyBuffer();
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        return bytes;
    }

    /**
     * Why a TextMessage body cannot be decoded, or null if it can. The JMS client would fail inside {@code receive()}
     * on such a body, or allocate whatever length its first bytes claim; the lengths are checked here first.
     */
    private static String textProblem(byte[] raw) {
        if (raw.length == 0) {
            return "no bytes at all";
        }
        if (raw[0] == 0) {
            return raw.length == 1 ? null : "a null text followed by " + (raw.length - 1) + " more bytes";
        }
        if (raw[0] != 1) {
            return "it starts with byte " + raw[0] + " where a text starts with 0 or 1";
        }
        if (raw.length < TEXT_HEADER_BYTES) {
            return "it ends inside the text's length";
        }
        int length = ActiveMQBuffers.wrappedBuffer(raw).getInt(1);
        if (length < 0 || length % 2 != 0 || length != raw.length - TEXT_HEADER_BYTES) {
            return "it claims " + length + " bytes of UTF-16 text where " + (raw.length - TEXT_HEADER_BYTES)
                    + " follow";
        }
        return null;
    }

    /** A decodable text body as UTF-8 (a null text is an empty input). */
    private static byte[] text(byte[] raw) {
        SimpleString text = TextMessageUtil.readBodyText(ActiveMQBuffers.wrappedBuffer(raw));
        return text == null ? new byte[0] : text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String typeName(byte type) {
        return switch (type) {
            case Message.OBJECT_TYPE -> "an ObjectMessage";
            case Message.MAP_TYPE -> "a MapMessage";
            case Message.STREAM_TYPE -> "a StreamMessage";
            case Message.DEFAULT_TYPE -> "a Message without a body";
            default -> "a message of type " + type;
        };
    }
}
