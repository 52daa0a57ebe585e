package io.claimguard.broker;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * A user name and its password on the broker. {@link #toString()} never shows the password.
 *
 * @param user the user name
 * @param password the password, as the client sends it
 */
public record BrokerLogin(String user, String password) {

    /** Random bytes in a generated password: 192 bits, 32 characters of URL-safe base64. */
    private static final int PASSWORD_BYTES = 24;

    public BrokerLogin {
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("a broker login needs a user name");
        }
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("the broker login " + user + " needs a password");
        }
        if (!user.equals(user.strip())) {
            throw new IllegalArgumentException("the broker user name '" + user + "' starts or ends with white space");
        }
    }

    /** A login with a new random password. */
    public static BrokerLogin generate(String user, SecureRandom random) {
        byte[] bytes = new byte[PASSWORD_BYTES];
        random.nextBytes(bytes);
        return new BrokerLogin(user, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    @Override
    public String toString() {
        return "BrokerLogin[user=" + user + ", password=(hidden)]";
    }
}
