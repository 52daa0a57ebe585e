package io.claimguard.config;

/**
 * The login the service's own connections use at run time (its pool and the explorer's), chosen once at start, after
 * the migrations, from the login it is given ({@code spring.datasource.username}):
 *
 * <ul>
 *   <li>{@link Kind#GIVEN}: the given login holds no privilege that could change an audit row, so it is used as it is
 *       (the two-login set-up: {@code spring.flyway.user} the owner, {@code spring.datasource.username} the runtime
 *       login);</li>
 *   <li>{@link Kind#MADE}: the given login is privileged, so ClaimGuard used it to make (or bring up to date) the login
 *       named by {@code claimguard.database.runtime-login}, a member of {@code claimguard_writer} and
 *       {@code claimguard_reader} only, with a password derived from the given one, and connects as that;</li>
 *   <li>{@link Kind#TRIAL}: the given login is privileged and {@code claimguard.database.allow-privileged-login} is
 *       true, so it is used as it is, with a warning at every start.</li>
 * </ul>
 *
 * @param username the runtime login
 * @param password its password (never shown by {@link #toString()})
 * @param kind how it was chosen
 * @param givenLogin the login in {@code spring.datasource.username}
 */
public record RuntimeLogin(String username, String password, Kind kind, String givenLogin) {

    /** How the runtime login was chosen. */
    public enum Kind {
        GIVEN, MADE, TRIAL
    }

    /** The login as the start-up report names it, e.g. {@code claimguard_runtime (made by ClaimGuard with postgres)}. */
    public String describe() {
        return switch (kind) {
            case GIVEN -> username;
            case MADE -> username + " (the runtime login ClaimGuard made with " + givenLogin + ")";
            case TRIAL -> username + " (a privileged login, for a trial only: claimguard.database.allow-privileged-login)";
        };
    }

    @Override
    public String toString() {
        return "RuntimeLogin[" + describe() + "]";
    }
}
