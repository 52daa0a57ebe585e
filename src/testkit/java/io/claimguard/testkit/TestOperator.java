package io.claimguard.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The operator every test service knows ({@code claimguard.explorer.users[0]}): the login that opens the management
 * port's detail (health components, camelroutes, metrics, the status endpoint) and the audit explorer. Its hash has
 * bcrypt cost 4, so that tests that poll the actuator with it spend no CPU on hashing.
 */
public final class TestOperator {

    public static final String NAME = "operator";
    public static final String PASSWORD = "operator-password-for-tests";
    /** {@code PASSWORD} hashed as {@code claimguard hash-password} does, at bcrypt cost 4. */
    public static final String PASSWORD_HASH = "{bcrypt}$2a$04$dWJMYA./nsi0XL2oYxcGLOcLsx7ZWs2YvLXrRAEGiVIjQBKSHMXUa";

    private TestOperator() {
    }

    /** The service properties that make this operator known. */
    public static Map<String, String> properties() {
        return Map.of("claimguard.explorer.users[0].name", NAME, "claimguard.explorer.users[0].password", PASSWORD_HASH);
    }

    /** The value of an {@code Authorization} header that logs this operator in (HTTP Basic). */
    public static String basicAuthorization() {
        return "Basic " + Base64.getEncoder().encodeToString((NAME + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    }
}
