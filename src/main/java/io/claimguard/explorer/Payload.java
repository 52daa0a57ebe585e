package io.claimguard.explorer;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A dead letter's bytes as they can be shown safely: as text when they are well-formed UTF-8 without control
 * characters other than tab, line feed and carriage return; as a hex dump (offset, 16 bytes in hex, their printable
 * ASCII) otherwise. Either way the page escapes it; at most {@link #SHOWN} bytes are shown, and only they are read.
 *
 * @param text whether {@link #content} is the bytes as text (else a hex dump)
 * @param length how many bytes there are in all
 * @param truncated whether the bytes were longer than what is shown
 */
record Payload(boolean text, String content, long length, boolean truncated) {

    static final int SHOWN = 64 * 1024;

    static Payload of(byte[] bytes) {
        return of(bytes.length > SHOWN ? Arrays.copyOf(bytes, SHOWN) : bytes, bytes.length);
    }

    /**
     * @param first the first bytes, as many as there are up to {@link #SHOWN} (more are cut)
     * @param length how many bytes there are in all, the first ones included
     */
    static Payload of(byte[] first, long length) {
        byte[] shown = first.length > SHOWN ? Arrays.copyOf(first, SHOWN) : first;
        boolean truncated = shown.length < length;
        String text = printableUtf8(shown, truncated);
        return text != null ? new Payload(true, text, length, truncated)
                : new Payload(false, hexDump(shown), length, truncated);
    }

    /** The bytes as text, or null when they are not UTF-8 or hold control characters; a cut last character is dropped. */
    private static String printableUtf8(byte[] bytes, boolean truncated) {
        int length = bytes.length;
        if (truncated) {
            // do not count a character cut by the truncation against the text
            while (length > 0 && length > bytes.length - 4 && (bytes[length - 1] & 0xC0) == 0x80) {
                length--;
            }
            if (length > 0 && (bytes[length - 1] & 0x80) != 0) {
                length--;
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        boolean printable = text.codePoints().allMatch(c -> c == '\t' || c == '\n' || c == '\r'
                || !(Character.isISOControl(c) || c == 0x2028 || c == 0x2029 || Character.getType(c) == Character.FORMAT
                        && c != 0x200D));
        return printable ? text : null;
    }

    static String hexDump(byte[] bytes) {
        StringBuilder dump = new StringBuilder();
        for (int offset = 0; offset < bytes.length; offset += 16) {
            dump.append("%08x ".formatted(offset));
            StringBuilder ascii = new StringBuilder();
            for (int i = offset; i < offset + 16; i++) {
                if (i < bytes.length) {
                    int b = bytes[i] & 0xFF;
                    dump.append(' ').append("%02x".formatted(b));
                    ascii.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
                } else {
                    dump.append("   ");
                }
            }
            dump.append("  |").append(ascii).append("|\n");
        }
        return dump.toString();
    }
}
