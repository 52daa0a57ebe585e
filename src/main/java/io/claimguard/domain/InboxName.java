package io.claimguard.domain;

import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The rules for names in the file drop: which entries of the inbox are inputs, and the name an input is stored under
 * in {@code .done/} or {@code .error/}.
 *
 * <p>An input keeps its own name there, numbered when that name is taken ({@code x.json}, {@code x.1.json},
 * {@code x.2.json}). Only where its name cannot be kept is it stored under a built name,
 * {@code <head>.<hash>.json} ({@code <head>.<hash>.<n>.json} when that is taken): {@code <hash>} is the first
 * {@value #HASH_HEX_DIGITS} hexadecimal digits of the SHA-256 of the full name's UTF-8 bytes (the name as
 * {@code source_ref} holds it), {@code <head>} as much of the name before {@code .json} as fits. A name cannot be kept
 * when it, or the file beside it ({@code <name>.reason} in {@code .error/}), would be longer than
 * {@value #MAX_NAME_BYTES} bytes, the longest name Linux file systems take; or when the platform cannot write it back
 * as it was listed (its bytes are not valid in the file-name encoding, so the name as Java reads it holds U+FFFD).
 */
public final class InboxName {

    /** What an input's name ends in. */
    public static final String EXTENSION = ".json";
    /** The longest file name, in bytes, of Linux file systems (NAME_MAX of ext4, XFS, Btrfs, tmpfs, NFS). */
    public static final int MAX_NAME_BYTES = 255;
    /** The digits of the full name's hash in a built name. */
    public static final int HASH_HEX_DIGITS = 16;

    /** What an entry of the inbox is, by its name alone. */
    public enum Kind {
        /** Named {@code *.json}, and not hidden: an input. */
        INPUT,
        /** The name starts with a dot: a file still being written under a temporary name, or none of ours. */
        HIDDEN,
        /** Any other name: not an input. */
        OTHER
    }

    private InboxName() {
    }

    public static Kind classify(String name) {
        if (name.startsWith(".")) {
            return Kind.HIDDEN;
        }
        return name.endsWith(EXTENSION) ? Kind.INPUT : Kind.OTHER;
    }

    public static boolean isInput(String name) {
        return classify(name) == Kind.INPUT;
    }

    /**
     * The name an input is stored under after {@code clash} names are taken in its folder.
     *
     * @param name the input's name as Java reads it (and {@code source_ref} holds it)
     * @param clash how many names for it are taken already (0 first)
     * @param writable whether the platform writes {@code name} back to the bytes it was listed with
     * @param besideIt what the folder appends to the stored name for a file beside it ({@code .reason} in
     *     {@code .error/}), or the empty string
     * @param fileNames the platform's file-name encoding
     */
    public static String storedName(String name, int clash, boolean writable, String besideIt, Charset fileNames) {
        String numbered = numbered(name, clash);
        if (writable && bytes(numbered + besideIt, fileNames) <= MAX_NAME_BYTES) {
            return numbered;
        }
        return built(name, clash, besideIt, fileNames);
    }

    /**
     * The name after {@code clash} files of its name: its own first, then a number before the extension, {@code x.json},
     * {@code x.1.json}, {@code x.2.json}, so that they list side by side.
     */
    public static String numbered(String name, int clash) {
        if (clash == 0) {
            return name;
        }
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? name + "." + clash : name.substring(0, dot) + "." + clash + name.substring(dot);
    }

    /** The first {@value #HASH_HEX_DIGITS} hexadecimal digits of the SHA-256 of the name's UTF-8 bytes. */
    public static String hash(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, HASH_HEX_DIGITS / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }

    /**
     * The name on one line, as a reason file writes it: backslashes and control characters (U+0000 to U+001F, U+007F)
     * escaped as in a JSON string ({@code \\}, {@code \n}, {@code \t}, {@code \u001b}); any other name as it is.
     */
    public static String oneLine(String name) {
        StringBuilder line = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        return line.toString();
    }

    /**
     * {@code <head>.<hash>.json}, or {@code <head>.<hash>.<n>.json} after {@code clash} of them: the head is the name
     * before its extension, each character the platform cannot encode written as {@code _}, cut at a whole character
     * so that the name and the file beside it fit.
     */
    private static String built(String name, int clash, String besideIt, Charset fileNames) {
        String tail = "." + hash(name) + (clash == 0 ? "" : "." + clash) + EXTENSION;
        String stem = name.endsWith(EXTENSION) ? name.substring(0, name.length() - EXTENSION.length()) : name;
        int budget = MAX_NAME_BYTES - bytes(tail + besideIt, fileNames);
        CharsetEncoder encoder = fileNames.newEncoder();
        StringBuilder head = new StringBuilder();
        int used = 0;
        for (int i = 0; i < stem.length(); ) {
            int codePoint = stem.codePointAt(i);
            String character = new String(Character.toChars(codePoint));
            if (!encoder.canEncode(character)) {
                character = "_";
            }
            int size = bytes(character, fileNames);
            if (used + size > budget) {
                break;
            }
            head.append(character);
            used += size;
            i += Character.charCount(codePoint);
        }
        return head + tail;
    }

    private static int bytes(String text, Charset fileNames) {
        return text.getBytes(fileNames).length;
    }
}
