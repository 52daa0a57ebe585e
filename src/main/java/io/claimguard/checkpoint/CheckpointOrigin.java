package io.claimguard.checkpoint;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The default origin line of a database's checkpoints: {@code claimguard/<host>:<port>/<database>}, from the JDBC
 * URL, so that checkpoints of different audit databases cannot be mistaken for one another. An operator sets
 * {@code claimguard.checkpoint.origin} when the URL names the database differently on different instances.
 */
public final class CheckpointOrigin {

    private static final Pattern POSTGRESQL_URL = Pattern.compile("jdbc:postgresql://([^/?]*)/?([^?]*).*");

    private CheckpointOrigin() {
    }

    public static String of(String configured, String jdbcUrl) {
        if (configured != null && !configured.isBlank()) {
            return configured.strip();
        }
        Matcher matcher = POSTGRESQL_URL.matcher(jdbcUrl == null ? "" : jdbcUrl);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("cannot name the checkpoint origin from the URL " + jdbcUrl
                    + ": set claimguard.checkpoint.origin");
        }
        String host = matcher.group(1).isEmpty() ? "localhost" : matcher.group(1);
        String hostAndPort = host.contains(":") && !host.endsWith("]") ? host : host + ":5432";
        String database = matcher.group(2).isEmpty() ? "postgres" : matcher.group(2);
        return "claimguard/" + hostAndPort + "/" + database;
    }
}
