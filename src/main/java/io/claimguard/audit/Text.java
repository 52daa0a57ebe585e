package io.claimguard.audit;

/** PostgreSQL text cannot hold U+0000; reasons and file names are stored with it spelled out. */
final class Text {

    private Text() {
    }

    static String storable(String text) {
        return text == null ? "" : text.replace("\u0000", "\\u0000");
    }
}
