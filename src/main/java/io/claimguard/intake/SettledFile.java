package io.claimguard.intake;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.component.file.GenericFileFilter;

/**
 * Which inbox files may be read now. A file is settled when it has been unchanged for the settle time, or at once
 * when its bytes are a complete JSON object or array: what a writer that renames {@code name.tmp} to
 * {@code name.json} always hands over, and what a file still being written is not (its outer object is not closed
 * yet). So a renamed file is read at its first sight, and only a file that is not (yet) a complete object or array
 * waits for the settle time: one still being written, and bad inputs, which are then read and rejected.
 *
 * <p>Written here because Camel's read locks decide on size and modification time alone, and so make every file
 * wait ({@code changed} with a minimum age) or none ({@code none}).
 */
final class SettledFileFilter implements GenericFileFilter<java.io.File> {

    private final Duration settleTime;
    private final long maxBytes;
    private final Clock clock;

    /** @param maxBytes a file larger than this is read at once: it is rejected as too large, complete or not */
    SettledFileFilter(Duration settleTime, long maxBytes, Clock clock) {
        this.settleTime = settleTime;
        this.maxBytes = maxBytes;
        this.clock = clock;
    }

    @Override
    public boolean accept(GenericFile<java.io.File> file) {
        if (file.isDirectory()) {
            return true;
        }
        if (clock.millis() - file.getLastModified() >= settleTime.toMillis() || file.getFileLength() > maxBytes) {
            return true;
        }
        try {
            return complete(Files.readAllBytes(file.getFile().toPath()));
        } catch (IOException e) {
            // gone or unreadable now: looked at again at the next poll
            return false;
        }
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
