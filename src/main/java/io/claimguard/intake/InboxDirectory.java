package io.claimguard.intake;

import io.claimguard.domain.InboxName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.UUID;

/**
 * The inbox as a boundary. It is opened as a directory ({@link SecureDirectoryStream}: the entries are looked at, read
 * and moved relative to the open directory, as {@code fstatat}, {@code openat} and {@code renameat} do), and every
 * entry is addressed by its name as it was listed: the bytes, whatever they are (backslashes, line breaks, bytes that
 * are not UTF-8), never the name turned into text and back. Nothing is looked at, read or moved through a symbolic
 * link: an entry's own attributes are read, a file is opened only with {@code O_NOFOLLOW}, and {@code .done/} and
 * {@code .error/} are used only when they are directories of the inbox's own. The inbox itself is the operator's
 * configuration and may be a link.
 *
 * <p>Written here because Camel's file component works with {@code java.io.File}: it lists names as text (a name that
 * is not valid in the file-name encoding cannot be found again), turns a backslash into a path separator, follows
 * symbolic links and reads a FIFO until a writer comes.
 */
final class InboxDirectory {

    static final String DONE = ".done";
    static final String ERROR = ".error";
    /** The text file beside every file in {@code .error/}: {@code <stored name>.reason}. */
    static final String REASON_SUFFIX = ".reason";
    /** The file-name encoding of this JVM ({@code sun.jnu.encoding}, from the locale). */
    static final Charset FILE_NAMES = fileNameEncoding();

    private static final Set<OpenOption> READ_NOT_FOLLOWING = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE_NOT_FOLLOWING = Set.of(StandardOpenOption.WRITE,
            StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);

    private final Path inbox;

    InboxDirectory(Path inbox) {
        this.inbox = inbox;
    }

    Path path() {
        return inbox;
    }

    /** Creates the inbox when it does not exist yet, as the file drop always did. */
    void create() throws IOException {
        Files.createDirectories(inbox);
    }

    /** The inbox, opened: list it once, look at, read and move its entries through it, then close it. */
    SecureDirectoryStream<Path> open() throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(inbox);
        if (stream instanceof SecureDirectoryStream<Path> secure) {
            return secure;
        }
        stream.close();
        throw new IOException("the file drop needs a file system on which Java works relative to an open directory"
                + " without following links (java.nio.file.SecureDirectoryStream, as on Linux); " + inbox + " is not on one");
    }

    /** The entry's own attributes: of a link, the link's. */
    static BasicFileAttributes attributes(SecureDirectoryStream<Path> directory, Path name) throws IOException {
        return directory.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
    }

    /** Opens the entry for reading; fails for a symbolic link instead of following it. */
    static SeekableByteChannel read(SecureDirectoryStream<Path> directory, Path name) throws IOException {
        return directory.newByteChannel(name, READ_NOT_FOLLOWING);
    }

    /** What an entry that is not a regular file is, in the words of its reason. */
    static String describe(BasicFileAttributes attributes) {
        if (attributes.isSymbolicLink()) {
            return "a symbolic link, not a regular file: set aside without following it";
        }
        if (attributes.isDirectory()) {
            return "a directory, not a regular file: set aside without looking into it";
        }
        return "a special file (a FIFO, a socket or a device), not a regular file: set aside without opening it";
    }

    /**
     * Moves the entry into {@code .done/} or {@code .error/} under the first name no entry holds there yet
     * ({@link InboxName#storedName}), its reason (if any) written beside it first, so that a file in {@code .error/}
     * never lacks it; returns the name it is stored under. A reason file without its file is what a crash between the two
     * leaves: the same input, taken again, takes that name and writes its reason anew. One move at a time: two inputs may
     * want the same free name, and only one instance works the inbox at a time.
     *
     * @param name the entry's name as listed
     * @param text that name as Java reads it
     */
    synchronized String moveUnderFreeName(Path name, String text, String folder, String reason) throws IOException {
        try (SecureDirectoryStream<Path> from = open(); SecureDirectoryStream<Path> to = folder(from, folder)) {
            boolean writable = writable(name, text);
            String besideIt = reason == null ? "" : REASON_SUFFIX;
            for (int clash = 0; ; clash++) {
                String stored = InboxName.storedName(text, clash, writable, besideIt, FILE_NAMES);
                Path target = name.getFileSystem().getPath(stored);
                if (exists(to, target)) {
                    continue;
                }
                Path reasonFile = reason == null ? null : name.getFileSystem().getPath(stored + REASON_SUFFIX);
                if (reasonFile != null) {
                    writeAtomically(to, reasonFile, reason);
                }
                try {
                    from.move(name, to, target);
                    return stored;
                } catch (IOException e) {
                    // the reason goes with its file: none is left for a file that is not there
                    if (reasonFile != null) {
                        deleteIfExists(to, reasonFile);
                    }
                    throw e;
                }
            }
        }
    }

    /** {@code .done/} or {@code .error/}, made when missing; refused when it is not a directory of the inbox's own. */
    private SecureDirectoryStream<Path> folder(SecureDirectoryStream<Path> from, String folder) throws IOException {
        Path relative = inbox.getFileSystem().getPath(folder);
        try {
            return from.newDirectoryStream(relative, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            try {
                Files.createDirectory(inbox.resolve(folder));
            } catch (FileAlreadyExistsException madeMeanwhile) {
                // by whoever was quicker: opened below like any other
            }
            return from.newDirectoryStream(relative, LinkOption.NOFOLLOW_LINKS);
        } catch (FileSystemException notOurs) {
            throw new FileSystemException(inbox.resolve(folder).toString(), null, "not a directory of the inbox's own"
                    + " (a symbolic link, or another kind of file): nothing is moved through it");
        }
    }

    /** Whether the name, as text, is the entry's name again: false when its bytes are not valid in the encoding. */
    static boolean writable(Path name, String text) {
        try {
            return name.getFileSystem().getPath(text).equals(name);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static boolean exists(SecureDirectoryStream<Path> directory, Path name) throws IOException {
        try {
            attributes(directory, name);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** Written under a hidden temporary name and renamed into place: never seen half written. */
    private static void writeAtomically(SecureDirectoryStream<Path> directory, Path file, String text) throws IOException {
        Path temporary = file.getFileSystem().getPath(".claimguard-" + UUID.randomUUID() + REASON_SUFFIX + ".tmp");
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        try (SeekableByteChannel out = directory.newByteChannel(temporary, CREATE_NOT_FOLLOWING)) {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        }
        try {
            directory.move(temporary, directory, file);
        } catch (IOException e) {
            deleteIfExists(directory, temporary);
            throw e;
        }
    }

    private static void deleteIfExists(SecureDirectoryStream<Path> directory, Path name) {
        try {
            directory.deleteFile(name);
        } catch (IOException e) {
            // gone already, or cannot be: what is left is only a reason file without its file
        }
    }

    private static Charset fileNameEncoding() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name()));
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }
}
