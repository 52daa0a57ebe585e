package io.claimguard.broker;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The broker's credentials file: a Java properties file with {@code <role>.user} and {@code <role>.password} for each
 * role that has a login ({@code service}, {@code producer}, {@code consumer}, {@code operator}). The service writes it
 * on a first start without configured users, readable and writable by its owner only, and reads it on every later
 * start; the command-line tools read it to log in with the role their work needs. An operator may write it (or mount
 * it) too.
 */
public final class CredentialsFile {

    /** Owner read and write, nothing for group and others: {@code rw-------}. */
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private CredentialsFile() {
    }

    /** The logins the file holds; an {@link IllegalArgumentException} naming the file and the key when it is malformed. */
    public static BrokerUsers read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the broker credentials file " + file, e);
        }
        try {
            return parse(new StringReader(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the broker credentials file " + file + " is not valid: " + e.getMessage(), e);
        }
    }

    static BrokerUsers parse(Reader text) {
        Properties properties = new Properties();
        try {
            properties.load(text);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Set<String> unknown = new TreeSet<>(properties.stringPropertyNames());
        Map<BrokerRole, BrokerLogin> logins = new EnumMap<>(BrokerRole.class);
        for (BrokerRole role : BrokerRole.values()) {
            String userKey = role.key() + ".user";
            String passwordKey = role.key() + ".password";
            unknown.remove(userKey);
            unknown.remove(passwordKey);
            String user = properties.getProperty(userKey);
            String password = properties.getProperty(passwordKey);
            if (user == null && password == null) {
                continue;
            }
            if (user == null || user.isBlank() || password == null || password.isEmpty()) {
                throw new IllegalArgumentException("the " + role.key() + " login needs both " + userKey + " and " + passwordKey);
            }
            logins.put(role, new BrokerLogin(user.strip(), password));
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown key(s) " + unknown + "; the keys are <role>.user and <role>.password"
                    + " for the roles service, producer, consumer and operator");
        }
        return new BrokerUsers(logins);
    }

    /** The file's text: a comment that says what it is, then each login. */
    static String format(BrokerUsers users, Instant generatedAt) {
        StringBuilder text = new StringBuilder()
                .append("# ClaimGuard's embedded broker logins, generated ").append(generatedAt).append(".\n")
                .append("# Secret: readable by its owner only. The service reads it at every start, the command-line\n")
                .append("# tools to log in with the role they need; delete it (with the service stopped) for new passwords.\n");
        users.logins().forEach((role, login) -> text.append('\n')
                .append(role.key()).append(".user=").append(escape(login.user())).append('\n')
                .append(role.key()).append(".password=").append(escape(login.password())).append('\n'));
        return text.toString();
    }

    /**
     * Writes a new file holding the logins, readable and writable by its owner only from its creation on (where the
     * file system has POSIX permissions), and never over an existing one: it is written under a temporary name beside
     * it and renamed. Returns whether the owner-only permissions could be set.
     */
    public static boolean create(Path file, BrokerUsers users, Instant generatedAt) {
        Path folder = file.toAbsolutePath().getParent();
        boolean posix = false;
        Path temporary = null;
        try {
            Files.createDirectories(folder);
            posix = Files.getFileStore(folder).supportsFileAttributeView("posix");
            temporary = posix
                    ? Files.createTempFile(folder, ".credentials-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                    : Files.createTempFile(folder, ".credentials-", ".tmp");
            Files.writeString(temporary, format(users, generatedAt), StandardCharsets.UTF_8);
            if (Files.exists(file)) {
                throw new FileAlreadyExistsException(file.toString());
            }
            Files.move(temporary, file);
            temporary = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the broker credentials file " + file, e);
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // a temporary file left behind holds what the failure kept from the credentials file
                }
            }
        }
        return posix;
    }

    /**
     * The permissions of the file when group or others may read or write it ({@code rw-r--r--}), else null (also where
     * the file system has no POSIX permissions).
     */
    public static String looserThanOwnerOnly(Path file) {
        try {
            if (!Files.getFileStore(file).supportsFileAttributeView("posix")) {
                return null;
            }
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            Set<PosixFilePermission> others = EnumSet.copyOf(permissions);
            others.removeAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.OWNER_EXECUTE));
            return others.isEmpty() ? null : PosixFilePermissions.toString(permissions);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** A value as a properties file holds it (the generated passwords are URL-safe base64, which needs nothing). */
    private static String escape(String value) {
        StringBuilder escaped = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\', '=', ':', '#', '!' -> escaped.append('\\').append(c);
                case ' ' -> escaped.append(i == 0 ? "\\ " : " ");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
