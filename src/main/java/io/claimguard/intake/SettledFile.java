package io.claimguard.intake;

import java.time.Duration;
import java.time.Instant;

/**
 * Which inbox files may be read as inputs now. A file is settled when it has been unchanged for the settle time, or at
 * once when its bytes are a complete JSON object or array: what a writer that renames {@code name.tmp} to
 * {@code name.json} always hands over, and what a file still being written is not (its outer object is not closed
 * yet). So a renamed file is read at its first sight, and only a file that is not (yet) a complete object or array
 * waits for the settle time: one still being written, and bad inputs, which are then read and rejected.
 *
 * <p>Written here because Camel's read locks decide on size and modification time alone, and so make every file
 * wait ({@code changed} with a minimum age) or none ({@code none}).
 */
final class SettledFile {

    private final Duration settleTime;
    private final long maxBytes;

    /** @param maxBytes a file larger than this is read at once: it is rejected as too large, complete or not */
    SettledFile(Duration settleTime, long maxBytes) {
        this.settleTime = settleTime;
        this.maxBytes = maxBytes;
    }

    /** Whether a file as large as {@code size}, last changed at {@code modified}, may be read now. */
    boolean settledBySize(long size, Instant modified, Instant now) {
        return size > maxBytes || Duration.between(modified, now).compareTo(settleTime) >= 0;
    }

    /** Whether a file that is not settled by its size or age holds what may be read at once: a complete object. */
    boolean settled(long size, Instant modified, Instant now, byte[] bytes) {
        return settledBySize(size, modified, now) || complete(bytes);
    }

    /**
     * Whether the bytes are one JSON object or array that is closed at its end (white space around it allowed), or
     * are malformed in a way no further byte can repair (a bracket closed that was never opened). Strings are
     * skipped with their escapes, so that brackets inside them do not count. Anything else, a scalar or nothing at
     * all included, is not known to be complete.
     */
    static boolean complete(byte[] bytes) {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        boolean opened = false;
        for (byte b : bytes) {
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
                continue;
            }
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r') {
                continue;
            }
            if (opened && depth == 0) {
                // more after the closed object: not what a finished writer hands over
                return false;
            }
            switch (b) {
                case '{', '[' -> {
                    opened = true;
                    depth++;
                }
                case '}', ']' -> {
                    depth--;
                    if (depth < 0) {
                        return true;
                    }
                }
                case '"' -> inString = true;
                default -> {
                    if (!opened) {
                        // a scalar at the top: cannot tell 4 from 42 until it is settled
                        return false;
                    }
                }
            }
        }
        return opened && depth == 0 && !inString;
    }
}
