package io.claimguard.audit;

/**
 * Text as PostgreSQL can store it. Its {@code text} type cannot hold U+0000, and a string with a lone UTF-16
 * surrogate has no UTF-8 form; both can arrive in a valid JSON string (as the escapes {@code \u0000} and
 * {@code \ud800}). U+0000 is stored spelled out as the six characters {@code \u0000}; a lone surrogate as
 * U+FFFD, the replacement character. Everything else is stored as it is.
 */
public final class Text {

    private static final char REPLACEMENT = '\uFFFD';

    private Text() {
    }

    /** For NOT NULL columns (file names, reasons): null becomes the empty string. */
    public static String storable(String text) {
        return text == null ? "" : column(text);
    }

    /** For nullable columns and JSON strings: null stays null. */
    static String column(String text) {
        if (text == null || isStorable(text)) {
            return text;
        }
        StringBuilder stored = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                stored.append("\\u0000");
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                stored.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                stored.append(REPLACEMENT);
            } else {
                stored.append(c);
            }
        }
        return stored.toString();
    }

    static boolean isStorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return false;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            }
        }
        return true;
    }
}
