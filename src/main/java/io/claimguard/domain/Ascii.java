package io.claimguard.domain;

/** ASCII-only case folding: the contract's case-insensitive values are ASCII words. */
final class Ascii {

    private Ascii() {
    }

    static boolean equalsIgnoreCase(String expected, String actual) {
        if (expected.length() != actual.length()) {
            return false;
        }
        for (int i = 0; i < expected.length(); i++) {
            if (lower(expected.charAt(i)) != lower(actual.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}
