package io.claimguard.domain;

/** Why an input was rejected before it could be audited; the code is stable, the message is for people. */
public enum RejectionReason {
    TOO_LARGE("too_large"),
    NOT_UTF8("not_utf8"),
    NOT_JSON("not_json"),
    TOO_DEEP("too_deep"),
    NOT_AN_OBJECT("not_an_object"),
    REQUEST_ID_MISSING("request_id.missing"),
    REQUEST_ID_INVALID("request_id.invalid"),
    VERIFIER_OUTPUT_MISSING("verifier_output.missing"),
    VERIFIER_OUTPUT_NOT_OBJECT("verifier_output.not_object");

    private final String code;

    RejectionReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
