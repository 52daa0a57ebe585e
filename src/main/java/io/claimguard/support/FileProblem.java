package io.claimguard.support;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Why a file could not be read or written, in words an operator can act on: Java's file exceptions carry only the
 * path as their message ({@code NoSuchFileException: /etc/claimguard/.checkpoint.key.1f2e.tmp}), which names neither
 * the cause nor, for a file written through a temporary one, the folder that is missing.
 */
public final class FileProblem {

    private FileProblem() {
    }

    /**
     * The cause: {@code the folder /etc/claimguard does not exist}, {@code permission denied on /x (running as
     * claimguard)}, {@code /x exists already}, {@code /x is not a folder}, {@code /x: Read-only file system}, {@code not
     * UTF-8 text}; null for an exception that is not about a file.
     */
    public static String describe(Throwable failure) {
        if (failure instanceof NoSuchFileException missing) {
            Path file = path(missing.getFile());
            Path folder = file == null ? null : file.toAbsolutePath().getParent();
            if (folder != null && !Files.isDirectory(folder)) {
                return "the folder " + missingFolder(folder) + " does not exist";
            }
            return (file == null ? "the file" : file.toString()) + " does not exist";
        }
        if (failure instanceof AccessDeniedException denied) {
            return "permission denied" + (denied.getFile() == null ? "" : " on " + denied.getFile())
                    + " (running as " + System.getProperty("user.name") + ")";
        }
        if (failure instanceof FileAlreadyExistsException exists) {
            return exists.getFile() + (exists.getReason() == null ? " exists already" : " " + exists.getReason());
        }
        if (failure instanceof NotDirectoryException notFolder) {
            return notFolder.getFile() + " is not a folder";
        }
        if (failure instanceof DirectoryNotEmptyException notEmpty) {
            return notEmpty.getFile() + " is a folder that is not empty";
        }
        if (failure instanceof FileSystemException other) {
            return (other.getFile() == null ? "" : other.getFile() + ": ")
                    + (other.getReason() == null ? other.getClass().getSimpleName() : other.getReason());
        }
        if (failure instanceof CharacterCodingException) {
            return "the file is not text in the expected encoding (UTF-8, or ASCII for a key)";
        }
        if (failure instanceof IOException && failure.getMessage() == null) {
            return failure.getClass().getSimpleName();
        }
        return null;
    }

    /** The outermost folder of the path that does not exist, so that the message names what to create first. */
    private static Path missingFolder(Path folder) {
        Path missing = folder;
        while (missing.getParent() != null && !Files.exists(missing.getParent())) {
            missing = missing.getParent();
        }
        return missing;
    }

    private static Path path(String file) {
        try {
            return file == null ? null : Path.of(file);
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
