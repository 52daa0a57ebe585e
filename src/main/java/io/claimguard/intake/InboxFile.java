package io.claimguard.intake;

import io.claimguard.pipeline.InputExchange;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;

/**
 * One inbox file handed to the file route: its name as listed (the bytes) and as Java reads it (what {@code source_ref}
 * holds), and what became of its earlier attempts.
 *
 * @param name the entry's name as listed, relative to the inbox
 * @param text the name as text
 * @param key which file this is
 * @param attempts its earlier attempts
 */
record InboxFile(Path name, String text, Key key, FileAttempts attempts) {

    private static final String FILE = "claimguardInboxFile";
    private static final String TAKING = "claimguardInboxTaking";

    /** What the route made of the entry when it took it. */
    enum Taking {
        /** An input now: read (a regular file), or set aside unread (anything else). */
        TAKEN,
        /** A regular file not complete yet and changed within the settle time: left for a later poll, not read. */
        NOT_SETTLED,
        /** Gone since the poll listed it: moved by the exchange that had it before. */
        GONE
    }

    /** Taken as an input. */
    static final Predicate TAKEN = exchange -> taking(exchange) == Taking.TAKEN;
    /** The result of this input's audit row is in the outbox already, written by an earlier attempt. */
    static final Predicate IN_OUTBOX = exchange -> of(exchange).attempts().wroteToOutbox(InputExchange.auditId(exchange));

    /**
     * One file, as the poll saw it: its name, its inode and device, size and modification time. A file changed or
     * replaced under the same name is another one, with attempts of its own.
     */
    record Key(Path name, Object fileKey, long size, FileTime modified) {

        static Key of(Path name, BasicFileAttributes attributes) {
            return new Key(name, attributes.fileKey(), attributes.size(), attributes.lastModifiedTime());
        }
    }

    FileTime modified() {
        return key.modified();
    }

    static InboxFile of(Exchange exchange) {
        return exchange.getProperty(FILE, InboxFile.class);
    }

    void handTo(Exchange exchange) {
        exchange.setProperty(FILE, this);
    }

    static Taking taking(Exchange exchange) {
        return exchange.getProperty(TAKING, Taking.class);
    }

    static void taking(Exchange exchange, Taking taking) {
        exchange.setProperty(TAKING, taking);
    }
}
