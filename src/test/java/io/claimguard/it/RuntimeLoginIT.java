package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.config.LoginPrivileges;
import io.claimguard.config.RuntimeLogin;
import io.claimguard.config.RuntimeLoginMaker;
import io.claimguard.explorer.ExplorerDatabase;
import io.claimguard.testkit.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service given a privileged login (the test database's superuser, as with the defaults): the runtime login it
 * makes, what that login may do, and its password. The local server trusts 127.0.0.1 and so checks no password; what
 * proves the password is the SCRAM verifier the server keeps, checked here against the derived password with the SCRAM
 * arithmetic of RFC 5802 (PBKDF2, HMAC, SHA-256: the check the server runs on a client's proof).
 */
class RuntimeLoginIT extends ServiceTestSupport {

    private static final String RUNTIME_LOGIN = "claimguard_runtime";
    private static final Pattern SCRAM_VERIFIER =
            Pattern.compile("SCRAM-SHA-256\\$(\\d+):([A-Za-z0-9+/=]+)\\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)");

    @Autowired
    DataSource dataSource;

    @Autowired
    ExplorerDatabase explorer;

    @Autowired
    RuntimeLogin runtimeLogin;

    @Test
    @DisplayName("Scenario: Given a privileged login, the service makes its runtime login and every runtime connection uses it")
    void privilegedLoginMakesTheRuntimeLogin() throws SQLException {
        assertThat(runtimeLogin.kind()).isEqualTo(RuntimeLogin.Kind.MADE);
        assertThat(runtimeLogin.username()).isEqualTo(RUNTIME_LOGIN);
        assertThat(runtimeLogin.givenLogin()).isEqualTo(DATABASE.username());
        assertThat(new JdbcTemplate(dataSource).queryForMap("SELECT session_user AS login, current_user AS acting"))
                .containsEntry("login", RUNTIME_LOGIN).containsEntry("acting", "claimguard_writer");
        assertThat(explorer.sql().queryForMap("SELECT session_user AS login, current_user AS acting"))
                .containsEntry("login", RUNTIME_LOGIN).containsEntry("acting", "claimguard_reader");

        assertThat(SQL.queryForMap("""
                SELECT rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolinherit
                FROM pg_roles WHERE rolname = ?""", RUNTIME_LOGIN))
                .containsEntry("rolcanlogin", true).containsEntry("rolsuper", false).containsEntry("rolcreatedb", false)
                .containsEntry("rolcreaterole", false).containsEntry("rolreplication", false)
                .containsEntry("rolbypassrls", false).containsEntry("rolinherit", true);
        assertThat(SQL.queryForList("""
                SELECT g.rolname FROM pg_auth_members AS m
                JOIN pg_roles AS g ON g.oid = m.roleid JOIN pg_roles AS u ON u.oid = m.member
                WHERE u.rolname = ? ORDER BY 1""", String.class, RUNTIME_LOGIN))
                .containsExactly("claimguard_reader", "claimguard_writer");
        // every role it may SET ROLE to, however indirectly: itself and the two
        assertThat(SQL.queryForList("SELECT rolname FROM pg_roles WHERE pg_has_role(?, oid, 'MEMBER') ORDER BY 1",
                String.class, RUNTIME_LOGIN)).containsExactly("claimguard_reader", RUNTIME_LOGIN, "claimguard_writer");
        assertThat(SQL.queryForObject("SELECT count(*) FROM pg_class WHERE relowner = ?::regrole", Long.class,
                RUNTIME_LOGIN)).isZero();
        try (Connection connection = dataSource.getConnection()) {
            assertThat(LoginPrivileges.of(connection)).isEmpty();
        }
    }

    @Test
    @DisplayName("Scenario: Every start and every instance set the same derived password, which the server keeps only as a SCRAM verifier")
    void everyStartSetsTheSameDerivedPassword() throws Exception {
        String derived = hmacSha256Base64Url(DATABASE.password(), "claimguard runtime login\n" + RUNTIME_LOGIN);
        assertThat(runtimeLogin.password()).isEqualTo(derived);
        String before = verifier();
        assertThat(verifies(before, derived)).as("verifier %s holds the derived password", before).isTrue();
        assertThat(verifies(before, derived + "x")).isFalse();
        assertThat(verifies(before, DATABASE.password())).isFalse();

        // six starts at once, on two databases of the same server (a role is the server's): each makes the login again
        TestDatabase other = TestDatabase.createSeparate().migrated();
        List<String> passwords = new ArrayList<>();
        ExecutorService starts = Executors.newFixedThreadPool(6);
        try {
            CountDownLatch ready = new CountDownLatch(6);
            List<Future<String>> made = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                TestDatabase database = i % 2 == 0 ? DATABASE : other;
                made.add(starts.submit(() -> {
                    try (Connection given = database.connect()) {
                        ready.countDown();
                        ready.await();
                        return RuntimeLoginMaker.make(given, RUNTIME_LOGIN, database.password());
                    }
                }));
            }
            for (Future<String> password : made) {
                passwords.add(password.get());
            }
        } finally {
            starts.shutdownNow();
            other.drop();
        }
        assertThat(passwords).hasSize(6).containsOnly(derived);
        String after = verifier();
        assertThat(after).as("set again, with a salt of its own").isNotEqualTo(before);
        assertThat(verifies(after, derived)).isTrue();

        // the service's pool opens new connections as the runtime login and goes on
        ((HikariDataSource) dataSource).getHikariPoolMXBean().softEvictConnections();
        assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT session_user", String.class)).isEqualTo(RUNTIME_LOGIN);
    }

    private static String verifier() {
        return SQL.queryForObject("SELECT rolpassword FROM pg_authid WHERE rolname = ?", String.class, RUNTIME_LOGIN);
    }

    /**
     * Whether the verifier ({@code SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey}) was made from the password:
     * SaltedPassword = PBKDF2-HMAC-SHA-256(password, salt, iterations), StoredKey = SHA-256(HMAC(SaltedPassword,
     * "Client Key")), ServerKey = HMAC(SaltedPassword, "Server Key").
     */
    private static boolean verifies(String verifier, String password) throws GeneralSecurityException {
        Matcher parts = SCRAM_VERIFIER.matcher(verifier);
        assertThat(parts.matches()).as("a SCRAM-SHA-256 verifier, never the password: %s", verifier).isTrue();
        Base64.Decoder base64 = Base64.getDecoder();
        byte[] salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(new PBEKeySpec(
                password.toCharArray(), base64.decode(parts.group(2)), Integer.parseInt(parts.group(1)), 256)).getEncoded();
        byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(hmac(salted, "Client Key"));
        return MessageDigest.isEqual(storedKey, base64.decode(parts.group(3)))
                && MessageDigest.isEqual(hmac(salted, "Server Key"), base64.decode(parts.group(4)));
    }

    private static String hmacSha256Base64Url(String key, String message) throws GeneralSecurityException {
        return "cg1." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(hmac(key.getBytes(StandardCharsets.UTF_8), message));
    }

    private static byte[] hmac(byte[] key, String message) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
    }
}
