package io.claimguard.status;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The file-drop backlog: the inputs waiting in the inbox. */
public final class Inbox {

    private Inbox() {
    }

    /** The {@code *.json} files waiting in the inbox (none when it does not exist yet). */
    public static long waitingFiles(Path inbox) throws IOException {
        long count = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(inbox, "*.json")) {
            for (Path file : files) {
                if (Files.isRegularFile(file)) {
                    count++;
                }
            }
        } catch (NoSuchFileException e) {
            return 0;
        }
        return count;
    }

    /** The inbox part of the status: its waiting files, or why they could not be counted. */
    public static Part<InboxBacklog> backlog(Path inbox) {
        try {
            return Part.of(new InboxBacklog(inbox.toString(), waitingFiles(inbox)));
        } catch (IOException e) {
            return Part.unavailable("cannot list the inbox " + inbox + ": " + e);
        }
    }

    /** The files waiting in one inbox. */
    public record InboxBacklog(String path, long files) {
    }
}
