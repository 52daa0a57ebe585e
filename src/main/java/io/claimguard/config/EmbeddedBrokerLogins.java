package io.claimguard.config;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
import io.claimguard.broker.CredentialsFile;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may log in to the embedded broker, settled once at start. Configured logins ({@code spring.artemis.user} and
 * {@code .password} for ClaimGuard itself, {@code claimguard.broker.users.<role>.user} and {@code .password} for the
 * others) are used as they are, and the credentials file is then neither read nor written. With none configured, the
 * credentials file ({@code claimguard.broker.credentials-file}) is read; on the first start, when it does not exist, a
 * login with a random password is generated for every role, written to it (owner-only) and printed once on standard
 * output. No login is ever built into the jar.
 *
 * @param users the logins, ClaimGuard's own ({@link BrokerRole#SERVICE}) always among them
 * @param origin where they came from, for the start-up log: the configuration, the file, or the file generated now
 */
public record EmbeddedBrokerLogins(BrokerUsers users, String origin) {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBrokerLogins.class);

    public EmbeddedBrokerLogins {
        if (users.login(BrokerRole.SERVICE).isEmpty()) {
            throw new IllegalStateException("the embedded broker needs ClaimGuard's own login (" + origin + ")");
        }
    }

    /** ClaimGuard's own login, the one its in-process connections use. */
    public BrokerLogin service() {
        return users.login(BrokerRole.SERVICE).orElseThrow();
    }

    /**
     * The logins from the settings: configured, else read from the credentials file, else generated into it.
     *
     * @param serviceUser {@code spring.artemis.user}
     * @param servicePassword {@code spring.artemis.password}
     * @param broker the {@code claimguard.broker} settings (its {@code users} and {@code credentials-file})
     * @param console where generated logins are printed, once
     */
    static EmbeddedBrokerLogins resolve(String serviceUser, String servicePassword, ClaimGuardProperties.Broker broker,
            PrintStream console) {
        ClaimGuardProperties.Users configured = broker.users();
        Map<BrokerRole, ClaimGuardProperties.Login> others = new EnumMap<>(BrokerRole.class);
        if (configured != null) {
            put(others, BrokerRole.PRODUCER, configured.producer());
            put(others, BrokerRole.CONSUMER, configured.consumer());
            put(others, BrokerRole.OPERATOR, configured.operator());
        }
        boolean serviceConfigured = (serviceUser != null && !serviceUser.isBlank())
                || (servicePassword != null && !servicePassword.isEmpty());
        if (serviceConfigured || !others.isEmpty()) {
            return configured(serviceUser, servicePassword, others);
        }
        Path file = broker.credentialsFile();
        if (file == null) {
            throw new IllegalStateException("no broker login is configured and claimguard.broker.credentials-file is blank:"
                    + " set spring.artemis.user and spring.artemis.password (and claimguard.broker.users.*), or name the file");
        }
        if (Files.exists(file)) {
            BrokerUsers users = CredentialsFile.read(file);
            String loose = CredentialsFile.looserThanOwnerOnly(file);
            if (loose != null) {
                LOG.warn("the broker credentials file {} may be read by others ({}): make it owner-only (chmod 600)",
                        file.toAbsolutePath(), loose);
            }
            if (users.login(BrokerRole.SERVICE).isEmpty()) {
                throw new IllegalStateException("the broker credentials file " + file.toAbsolutePath()
                        + " has no service.user and service.password: ClaimGuard's own login");
            }
            return new EmbeddedBrokerLogins(users, "read from " + file.toAbsolutePath());
        }
        BrokerUsers generated = BrokerUsers.generate(new SecureRandom());
        boolean ownerOnly = CredentialsFile.create(file, generated, Instant.now());
        if (!ownerOnly) {
            LOG.warn("the file system of {} has no POSIX permissions: restrict who may read it yourself", file.toAbsolutePath());
        }
        print(console, generated, file);
        return new EmbeddedBrokerLogins(generated, "generated into " + file.toAbsolutePath() + " (first start)");
    }

    private static void put(Map<BrokerRole, ClaimGuardProperties.Login> logins, BrokerRole role,
            ClaimGuardProperties.Login login) {
        if (login != null && login.given()) {
            logins.put(role, login);
        }
    }

    private static EmbeddedBrokerLogins configured(String serviceUser, String servicePassword,
            Map<BrokerRole, ClaimGuardProperties.Login> others) {
        Map<BrokerRole, BrokerLogin> logins = new EnumMap<>(BrokerRole.class);
        logins.put(BrokerRole.SERVICE, login("spring.artemis.user", "spring.artemis.password", serviceUser, servicePassword));
        others.forEach((role, login) -> logins.put(role, login("claimguard.broker.users." + role.key() + ".user",
                "claimguard.broker.users." + role.key() + ".password", login.user(), login.password())));
        try {
            return new EmbeddedBrokerLogins(new BrokerUsers(logins), "configured");
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the configured broker logins are not valid: " + e.getMessage(), e);
        }
    }

    private static BrokerLogin login(String userSetting, String passwordSetting, String user, String password) {
        if (user == null || user.isBlank() || password == null || password.isEmpty()) {
            throw new IllegalStateException("the embedded broker's configured logins need both " + userSetting + " and "
                    + passwordSetting + " (with no login configured at all, they are generated into"
                    + " claimguard.broker.credentials-file)");
        }
        return new BrokerLogin(user.strip(), password);
    }

    private static void print(PrintStream console, BrokerUsers users, Path file) {
        StringBuilder text = new StringBuilder()
                .append("\nClaimGuard's embedded broker requires a login. First start: these logins were generated and\n")
                .append("written to ").append(file.toAbsolutePath()).append(" (owner-only), which every later start\n")
                .append("and the command-line tools read. They are shown this once:\n");
        users.logins().forEach((role, login) -> text.append(String.format("  %-8s user %-10s password %s%n",
                role.key(), login.user(), login.password())));
        console.print(text.append('\n'));
        console.flush();
    }
}
