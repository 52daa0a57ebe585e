package io.claimguard.cli;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.broker.BrokerUsers;
import io.claimguard.broker.CredentialsFile;
import io.claimguard.support.Failures;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.activemq.artemis.api.core.ActiveMQSecurityException;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import picocli.CommandLine.Option;

/**
 * How a tool reaches the broker and logs in: the service's own broker settings, read from the same environment
 * variables, and the login of the role the tool's work needs ({@link BrokerRole}): by default the one the service's
 * credentials file holds for that role.
 */
public final class BrokerOptions {

    /** How long a tool waits for the broker to answer one call (connect, send, commit). */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    /** The embedded broker's acceptor as the service has it by default. */
    static final String DEFAULT_ACCEPTOR = "tcp://127.0.0.1:61616";
    /** Spring Boot's broker URL for {@code spring.artemis.mode=native} when none is set. */
    static final String DEFAULT_NATIVE_URL = "tcp://localhost:61616";
    /** The service's default {@code claimguard.broker.data-directory}. */
    static final String DEFAULT_DATA_DIRECTORY = "data/artemis";
    static final String CREDENTIALS_FILE_NAME = "credentials.properties";
    /** What a tool does when it connects, for {@link #failure}. */
    static final String LOGGING_IN = "logging in";

    /** The process's environment; a test gives its own. */
    static Map<String, String> environment = System.getenv();

    @Option(names = "--broker", paramLabel = "URL",
            description = "the broker (core protocol; default: the service's: with $SPRING_ARTEMIS_MODE=native"
                    + " $SPRING_ARTEMIS_BROKER_URL, else the embedded broker's acceptor $CLAIMGUARD_BROKER_ACCEPTOR_URL or "
                    + DEFAULT_ACCEPTOR + ")")
    String url;

    @Option(names = "--broker-user", paramLabel = "USER",
            description = "broker login (default: the login of the role the command needs, from"
                    + " $CLAIMGUARD_BROKER_USERS_<ROLE>_USER, else from the credentials file, else $SPRING_ARTEMIS_USER)")
    String user;

    @Option(names = "--broker-password", paramLabel = "PASSWORD",
            description = "the password of --broker-user")
    String password;

    @Option(names = "--broker-credentials", paramLabel = "FILE",
            description = "the service's broker credentials file (default: $CLAIMGUARD_BROKER_CREDENTIALS_FILE, else "
                    + CREDENTIALS_FILE_NAME + " in $CLAIMGUARD_BROKER_DATA_DIRECTORY or " + DEFAULT_DATA_DIRECTORY + ")")
    Path credentialsFile;

    @Option(names = "--broker-role", paramLabel = "ROLE",
            description = "whose login to take: service, producer, consumer or operator (default: the command's)")
    String role;

    /** A login and where it came from, for messages; {@code user} is null for none. */
    record Login(String user, String password, String source) {

        String describe() {
            return user == null ? "an anonymous login (" + source + ")" : "user " + user + " (" + source + ")";
        }
    }

    /** The broker's connection factory; the caller closes it. */
    public ActiveMQConnectionFactory connectionFactory() {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url());
        // a tool gives up at once when the broker is away, instead of retrying as the service does, and a broker that
        // accepts but does not answer holds it up for seconds, not the client's default 30
        factory.setReconnectAttempts(0);
        factory.setInitialConnectAttempts(1);
        factory.setCallTimeout(CALL_TIMEOUT.toMillis());
        return factory;
    }

    /** An open connection with the login of the role, or a {@link ToolFailure} that names the broker (and the login). */
    public Connection connect(ActiveMQConnectionFactory factory, BrokerRole defaultRole) {
        Login login = login(defaultRole);
        try {
            return factory.createConnection(login.user(), login.password());
        } catch (JMSException e) {
            throw failure(login, LOGGING_IN, e);
        }
    }

    /**
     * What failed, as one line: a refusal by the broker names the login and what was refused ({@code sending to
     * verifier.effective}); anything else says that the broker could not be used for it.
     */
    ToolFailure failure(BrokerRole defaultRole, String doing, Exception e) {
        return failure(login(defaultRole), doing, e);
    }

    private ToolFailure failure(Login login, String doing, Exception e) {
        if (refused(e)) {
            return new ToolFailure("the broker at " + url() + " refused " + login.describe() + " " + doing, e);
        }
        return new ToolFailure(doing.equals(LOGGING_IN) ? "cannot reach the broker at " + url()
                : "failed " + doing + " at " + url(), e);
    }

    /** Whether the broker refused the login or the operation (Artemis' security exceptions, over JMS or core). */
    static boolean refused(Throwable failure) {
        for (Throwable cause : Failures.causes(failure)) {
            if (cause instanceof JMSSecurityException || cause instanceof ActiveMQSecurityException) {
                return true;
            }
        }
        return false;
    }

    public String url() {
        return url != null ? url : defaultUrl(environment);
    }

    /**
     * The broker the service uses: with {@code SPRING_ARTEMIS_MODE=native} its {@code SPRING_ARTEMIS_BROKER_URL}, else the
     * embedded broker's acceptor {@code CLAIMGUARD_BROKER_ACCEPTOR_URL} (its acceptor options dropped), else the default.
     */
    static String defaultUrl(Map<String, String> env) {
        if ("native".equals(value(env, "SPRING_ARTEMIS_MODE").map(mode -> mode.toLowerCase(Locale.ROOT)).orElse(""))) {
            return value(env, "SPRING_ARTEMIS_BROKER_URL").orElse(DEFAULT_NATIVE_URL);
        }
        return value(env, "CLAIMGUARD_BROKER_ACCEPTOR_URL").map(acceptor -> {
            int options = acceptor.indexOf('?');
            return options < 0 ? acceptor : acceptor.substring(0, options);
        }).orElse(DEFAULT_ACCEPTOR);
    }

    /**
     * The login for the command's work: {@code --broker-user}; else the role's login ({@code --broker-role}, or the
     * command's) from {@code CLAIMGUARD_BROKER_USERS_<ROLE>_USER} and {@code _PASSWORD}, else from the credentials file
     * when it exists; else {@code SPRING_ARTEMIS_USER} and {@code SPRING_ARTEMIS_PASSWORD}; else none.
     */
    Login login(BrokerRole defaultRole) {
        if (user != null) {
            return new Login(user, password == null ? "" : password, "--broker-user");
        }
        if (password != null) {
            throw new ToolFailure("--broker-password needs --broker-user", null, ExitCodes.USAGE);
        }
        BrokerRole wanted = role == null ? defaultRole : role(role);
        String prefix = "CLAIMGUARD_BROKER_USERS_" + wanted.name() + "_";
        Optional<String> configuredUser = value(environment, prefix + "USER");
        if (configuredUser.isPresent() && wanted != BrokerRole.SERVICE) {
            return new Login(configuredUser.get(), value(environment, prefix + "PASSWORD").orElse(""),
                    "$" + prefix + "USER");
        }
        Path file = credentialsFile();
        boolean named = credentialsFile != null || value(environment, "CLAIMGUARD_BROKER_CREDENTIALS_FILE").isPresent();
        if (named || Files.exists(file)) {
            Optional<BrokerLogin> fromFile = readCredentials(file).login(wanted);
            if (fromFile.isPresent()) {
                return new Login(fromFile.get().user(), fromFile.get().password(),
                        "the " + wanted.key() + " login of " + file);
            }
        }
        Optional<String> serviceUser = value(environment, "SPRING_ARTEMIS_USER");
        if (serviceUser.isPresent()) {
            return new Login(serviceUser.get(), value(environment, "SPRING_ARTEMIS_PASSWORD").orElse(""),
                    "$SPRING_ARTEMIS_USER");
        }
        return new Login(null, null, "no " + wanted.key() + " login in " + file
                + ": start the service once to generate it, or give --broker-user");
    }

    /** The credentials file: {@code --broker-credentials}, else the service's default place for it. */
    Path credentialsFile() {
        if (credentialsFile != null) {
            return credentialsFile;
        }
        return value(environment, "CLAIMGUARD_BROKER_CREDENTIALS_FILE").map(Path::of)
                .orElseGet(() -> Path.of(value(environment, "CLAIMGUARD_BROKER_DATA_DIRECTORY").orElse(DEFAULT_DATA_DIRECTORY))
                        .resolve(CREDENTIALS_FILE_NAME));
    }

    private static BrokerUsers readCredentials(Path file) {
        try {
            return CredentialsFile.read(file);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            throw new ToolFailure("cannot read the broker credentials file " + file, e);
        }
    }

    private static BrokerRole role(String name) {
        for (BrokerRole candidate : BrokerRole.values()) {
            if (candidate.key().equalsIgnoreCase(name.strip())) {
                return candidate;
            }
        }
        throw new ToolFailure("--broker-role must be service, producer, consumer or operator, not '" + name + "'", null,
                ExitCodes.USAGE);
    }

    private static Optional<String> value(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
