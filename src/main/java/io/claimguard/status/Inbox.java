package io.claimguard.status;

import io.claimguard.domain.InboxName;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** The file-drop backlog: the inputs waiting in the inbox. */
public final class Inbox {

    private Inbox() {
    }

    /**
     * The inputs waiting in the inbox (none when it does not exist yet): its regular files named {@code *.json} that are
     * not hidden ({@link InboxName#isInput}), a link not followed. What the file drop leaves alone is not counted, nor
     * an entry it sets aside unread (which it moves to {@code .error/} at once).
     */
    public static long waitingFiles(Path inbox) throws IOException {
        long count = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(inbox)) {
            for (Path entry : entries) {
                if (InboxName.isInput(entry.getFileName().toString()) && regularFile(entry)) {
                    count++;
                }
            }
        } catch (NoSuchFileException e) {
            return 0;
        }
        return count;
    }

    private static boolean regularFile(Path entry) {
        try {
            return Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile();
        } catch (IOException gone) {
            return false;
        }
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
