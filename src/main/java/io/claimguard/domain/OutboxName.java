package io.claimguard.domain;

import java.nio.charset.StandardCharsets;

/**
 * The name of a file input's result in the outbox: {@code <request_id>.<audit_id>.json}. It never starts with a dot
 * (the outbox's names for files still being written) and never holds a path separator: a request id's first
 * character, when it is a dot, is written {@code %2E} ({@code .hidden} gives {@code %2E.hidden.32.json}, {@code ..}
 * gives {@code %2E..31.json}). So is any character outside the request id's alphabet {@code [A-Za-z0-9._:-]}, which a
 * validated request id never holds, as {@code %} and the hexadecimal digits of its UTF-8 bytes. Every other request id
 * is written as it is; since {@code %} is not in that alphabet, the request id is always read back unchanged.
 */
public final class OutboxName {

    /** What the result file's name ends in. */
    public static final String EXTENSION = ".json";

    private OutboxName() {
    }

    public static String of(String requestId, long auditId) {
        return escaped(requestId) + "." + auditId + EXTENSION;
    }

    /** The request id as the outbox name writes it. */
    public static String escaped(String requestId) {
        StringBuilder name = new StringBuilder(requestId.length() + 2);
        for (int i = 0; i < requestId.length(); ) {
            int codePoint = requestId.codePointAt(i);
            boolean kept = codePoint < 0x80 && (Character.isLetterOrDigit(codePoint) || codePoint == '_'
                    || codePoint == ':' || codePoint == '-' || (codePoint == '.' && i > 0));
            if (kept) {
                name.append((char) codePoint);
            } else {
                for (byte b : new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8)) {
                    name.append('%').append(String.format("%02X", b & 0xff));
                }
            }
            i += Character.charCount(codePoint);
        }
        return name.toString();
    }
}
