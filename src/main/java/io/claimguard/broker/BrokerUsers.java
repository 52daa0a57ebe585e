package io.claimguard.broker;

import java.security.SecureRandom;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Who may log in to the broker: at most one login per {@link BrokerRole}, each user name once. ClaimGuard's own
 * ({@link BrokerRole#SERVICE}) is always there when the embedded broker starts; a role without a login has nobody.
 */
public final class BrokerUsers {

    private final Map<BrokerRole, BrokerLogin> logins;

    public BrokerUsers(Map<BrokerRole, BrokerLogin> logins) {
        EnumMap<BrokerRole, BrokerLogin> copy = new EnumMap<>(BrokerRole.class);
        copy.putAll(logins);
        Map<String, BrokerRole> roleOfUser = new HashMap<>();
        copy.forEach((role, login) -> {
            BrokerRole other = roleOfUser.putIfAbsent(login.user(), role);
            if (other != null) {
                throw new IllegalArgumentException("the broker user " + login.user() + " is given twice, as " + other.key()
                        + " and as " + role.key() + ": each role needs a login of its own");
            }
        });
        this.logins = Collections.unmodifiableMap(copy);
    }

    /** A login for every role, each with a new random password and the role's {@link BrokerRole#generatedUser}. */
    public static BrokerUsers generate(SecureRandom random) {
        Map<BrokerRole, BrokerLogin> logins = new EnumMap<>(BrokerRole.class);
        for (BrokerRole role : BrokerRole.values()) {
            logins.put(role, BrokerLogin.generate(role.generatedUser(), random));
        }
        return new BrokerUsers(logins);
    }

    public Optional<BrokerLogin> login(BrokerRole role) {
        return Optional.ofNullable(logins.get(role));
    }

    /** Every login by its role, in the order of {@link BrokerRole}. */
    public Map<BrokerRole, BrokerLogin> logins() {
        return logins;
    }

    /** The users and their roles, without passwords: {@code claimguard (service), producer (producer), ...}. */
    public String describe() {
        StringJoiner users = new StringJoiner(", ");
        logins.forEach((role, login) -> users.add(login.user() + " (" + role.key() + ")"));
        return users.length() == 0 ? "nobody" : users.toString();
    }

    @Override
    public String toString() {
        return "BrokerUsers[" + describe() + "]";
    }
}
