package io.claimguard.explorer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * The operators of {@code claimguard.explorer.users}, and what makes them unusable: an entry without a name, a password
 * that is not a hash with its encoder id (plain text, {@code {noop}}, a {@code {bcrypt}} value that is not a bcrypt
 * hash, as when a shell took its {@code $}), a name twice (without case, as the login compares names), or an explorer
 * switched on with nobody to log in.
 */
final class Operators {

    /** The setting every message names. */
    static final String SETTING = "claimguard.explorer.users";

    private static final Pattern ENCODED = Pattern.compile("\\{[A-Za-z0-9_@.-]+}.+");
    private static final Pattern BCRYPT = Pattern.compile("\\{bcrypt}\\$2[aby]?\\$\\d\\d\\$[./A-Za-z0-9]{53}");

    private Operators() {
    }

    /** What is wrong with the configured operators, in one line naming the setting; empty when nothing is. */
    static Optional<String> problem(ExplorerProperties explorer) {
        Set<String> names = new HashSet<>();
        List<ExplorerProperties.User> users = explorer.users();
        for (int i = 0; i < users.size(); i++) {
            ExplorerProperties.User user = users.get(i);
            String entry = SETTING + "[" + i + "]";
            if (user.name() == null || user.name().isBlank()) {
                return Optional.of(entry + " has no name");
            }
            String hash = user.password() == null ? "" : user.password();
            if (!ENCODED.matcher(hash).matches() || hash.startsWith("{noop}")) {
                return Optional.of(entry + " (" + user.name() + "): the password must be a hash with its encoder id, "
                        + "e.g. {bcrypt}$2a$10$... from 'claimguard hash-password'; plain text and {noop} are refused");
            }
            if (hash.startsWith("{bcrypt}") && !BCRYPT.matcher(hash).matches()) {
                return Optional.of(entry + " (" + user.name() + "): the {bcrypt} value is not a whole bcrypt hash "
                        + "({bcrypt}$2a$10$ and 53 more characters, as 'claimguard hash-password' prints it; quote it "
                        + "where a shell would take its $)");
            }
            if (!names.add(user.name().toLowerCase(Locale.ROOT))) {
                return Optional.of(SETTING + " names " + user.name() + " twice (names are compared without case)");
            }
        }
        if (explorer.enabled() && users.isEmpty()) {
            return Optional.of(SETTING + " names nobody, but claimguard.explorer.enabled is true: nobody could log in. "
                    + "Add an operator (a name and a {bcrypt} hash from 'claimguard hash-password')");
        }
        return Optional.empty();
    }

    /** The operators as Spring Security's users, role OPERATOR; refused as {@link #problem} says. */
    static List<UserDetails> users(ExplorerProperties explorer) {
        problem(explorer).ifPresent(problem -> {
            throw new InvalidOperatorsException(problem);
        });
        List<UserDetails> users = new ArrayList<>();
        for (ExplorerProperties.User user : explorer.users()) {
            users.add(User.withUsername(user.name()).password(user.password()).roles("OPERATOR").build());
        }
        return users;
    }
}
