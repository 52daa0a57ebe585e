package io.claimguard.domain;

/**
 * Why an input was recorded in {@code dead_letter} instead of being audited: every reason code there is, stable for
 * queries and alerts. All but {@link #PROCESSING_FAILED} are rejections: the input is not an acceptable envelope.
 */
public enum RejectionReason {
    TOO_LARGE("too_large"),
    NOT_UTF8("not_utf8"),
    NOT_JSON("not_json"),
    TOO_DEEP("too_deep"),
    NOT_AN_OBJECT("not_an_object"),
    REQUEST_ID_MISSING("request_id.missing"),
    REQUEST_ID_INVALID("request_id.invalid"),
    VERIFIER_OUTPUT_MISSING("verifier_output.missing"),
    VERIFIER_OUTPUT_NOT_OBJECT("verifier_output.not_object"),
    /** A JMS message of a type that carries no envelope bytes (Object, Map, Stream or a bodiless Message). */
    MESSAGE_TYPE_UNSUPPORTED("message_type.unsupported"),
    /** A JMS TextMessage whose body is not a text the client can decode (its bytes are kept as they came). */
    MESSAGE_BODY_UNDECODABLE("message_body.undecodable"),
    /**
     * An inbox entry named like an input that is not a regular file (a symbolic link, a FIFO, a socket, a device, a
     * directory): set aside without being opened or followed, so that nothing outside the inbox is read through it.
     */
    FILE_TYPE_UNSUPPORTED("file_type.unsupported"),
    /** Not a rejection: an acceptable envelope whose processing failed in a way retries could not cure. */
    PROCESSING_FAILED("processing_failed");

    private final String code;

    RejectionReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
