package io.claimguard.support;

/**
 * A value that came from input (a file name, a request id, a source reference, a reason quoting input) as a log line may
 * hold it: it can neither end the line, nor start another, nor pass for another {@code key=value} field of it, and it is
 * bounded in length. Console lines and ECS JSON documents alike get the escaped text, so both read the same.
 *
 * <p>Escaped: {@code \\} and {@code "} as {@code \\\\} and {@code \"}; tab, line feed and carriage return as {@code \t},
 * {@code \n}, {@code \r}; every other control character (C0, DEL, C1), the line and paragraph separators U+2028 and
 * U+2029, format characters (bidirectional overrides, zero-width characters) and unpaired surrogates as
 * {@code \\uNNNN}. Anything else (accents, CJK, emoji) is kept as it is.
 */
public final class LogValue {

    /** Characters of the value shown; a longer value is cut there, with its length after it. */
    public static final int MAX_VALUE_CHARS = 256;
    /** Characters of a free text (a reason) shown. */
    public static final int MAX_TEXT_CHARS = 1024;

    private LogValue() {
    }

    /**
     * The value as one field: escaped, cut at {@value #MAX_VALUE_CHARS} characters ({@code ...(N chars)} after it), and
     * in double quotes when it is empty or holds a space, {@code =} or {@code "}, so that {@code source_ref=a.json
     * verdict=PASS} stays one field; {@code null} as {@code null}.
     */
    public static String of(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value.toString();
        String escaped = escaped(text, MAX_VALUE_CHARS);
        return needsQuotes(text) ? '"' + escaped + '"' : escaped;
    }

    /** A free text at the end of a line (a reason, a failure's message): escaped, cut at {@value #MAX_TEXT_CHARS}. */
    public static String text(Object value) {
        return value == null ? "null" : escaped(value.toString(), MAX_TEXT_CHARS);
    }

    private static boolean needsQuotes(String text) {
        if (text.isEmpty()) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '=' || c == '"' || Character.isSpaceChar(c)) {
                return true;
            }
        }
        return false;
    }

    private static String escaped(String text, int maxChars) {
        int shown = Math.min(text.length(), maxChars);
        if (shown < text.length() && Character.isHighSurrogate(text.charAt(shown - 1))
                && Character.isLowSurrogate(text.charAt(shown))) {
            shown--; // a character is kept whole or not at all
        }
        StringBuilder line = new StringBuilder(shown + 16);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '"' -> line.append("\\\"");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                        line.append(c).append(text.charAt(++i));
                    } else if (mustEscape(c)) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        if (shown < text.length()) {
            line.append("...(").append(text.length()).append(" chars)");
        }
        return line.toString();
    }

    private static boolean mustEscape(char c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }
}
