package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.TestOperator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Failed logins against the running service, over HTTP: by HTTP Basic on the actuator and by the explorer's login
 * form. The service runs as behind a proxy on 127.0.0.1 ({@code server.forward-headers-strategy=native}), so each test
 * comes from client addresses of its own by sending {@code X-Forwarded-For} from there; a client on 127.0.0.2 is not
 * that proxy. The waits are 5 s, doubling to 10 s, and the per-name limit 12 ({@link ServiceTestSupport}).
 */
@ExtendWith(OutputCaptureExtension.class)
class LoginThrottlingIT extends ServiceTestSupport {

    private static final AtomicInteger NEXT_ADDRESS = new AtomicInteger(1);
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String DETAIL = "/actuator/camelroutes";

    @Test
    @DisplayName("Scenario: Five failed logins throttle that name from that address, even with the right password")
    void nameFromAddress(CapturedOutput output) {
        double basicFailures = metric("claimguard_login_failures_total", "method=\"basic\"");
        double formFailures = metric("claimguard_login_failures_total", "method=\"form\"");
        double basicThrottled = metric("claimguard_login_throttled_total", "limit=\"name_and_address\",method=\"basic\"");
        double formThrottled = metric("claimguard_login_throttled_total", "limit=\"name_and_address\",method=\"form\"");

        // HTTP Basic: five wrong passwords, then the right one is refused unchecked: 429 with Retry-After, no data
        // the name in any case: the login ignores case, and so does the count
        String guesser = nextAddress();
        for (int i = 1; i <= 5; i++) {
            String name = i % 2 == 0 ? SECOND_OPERATOR.toUpperCase(Locale.ROOT) : SECOND_OPERATOR;
            assertThat(basic(guesser, name, "wrong-" + i).statusCode()).as("wrong password %d", i).isEqualTo(401);
        }
        HttpResponse<String> throttled = basic(guesser, SECOND_OPERATOR, SECOND_PASSWORD);
        assertThat(throttled.statusCode()).isEqualTo(429);
        assertThat(throttled.headers().firstValueAsLong("Retry-After").orElseThrow()).isBetween(1L, 5L);
        assertThat(throttled.body()).doesNotContain("file-intake");
        // the operator is not locked out elsewhere (and logs in with the name in another case)
        assertThat(basic(nextAddress(), SECOND_OPERATOR.toUpperCase(Locale.ROOT), SECOND_PASSWORD).statusCode())
                .isEqualTo(200);
        // and from the guesser's address the right password works again once the wait is over
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> basic(guesser, SECOND_OPERATOR, SECOND_PASSWORD).statusCode() == 200);

        // the login form: five wrong passwords, then the right one leads to the page that says to wait, not in
        String browser = nextAddress();
        for (int i = 1; i <= 5; i++) {
            assertThat(formLogin(browser, SECOND_OPERATOR, "wrong-" + i).location()).endsWith("/login?error");
        }
        FormLogin refused = formLogin(browser, SECOND_OPERATOR, SECOND_PASSWORD);
        assertThat(refused.location()).matches(".*/login\\?throttled=[1-5]");
        assertThat(page(browser, refused.cookie(), "/explorer").statusCode()).as("not logged in").isEqualTo(302);
        assertThat(formLogin(nextAddress(), SECOND_OPERATOR, SECOND_PASSWORD).location()).endsWith("/explorer");
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> formLogin(browser, SECOND_OPERATOR, SECOND_PASSWORD).location().endsWith("/explorer"));

        // counted: each wrong password once, each refusal by the limit that refused it
        assertThat(metric("claimguard_login_failures_total", "method=\"basic\"") - basicFailures).isEqualTo(5);
        assertThat(metric("claimguard_login_failures_total", "method=\"form\"") - formFailures).isEqualTo(5);
        assertThat(metric("claimguard_login_throttled_total", "limit=\"name_and_address\",method=\"basic\"")
                - basicThrottled).isGreaterThanOrEqualTo(1);
        assertThat(metric("claimguard_login_throttled_total", "limit=\"name_and_address\",method=\"form\"")
                - formThrottled).isGreaterThanOrEqualTo(1);
        // logged once a burst, with the name and the address; never a password
        for (String address : List.of(guesser, browser)) {
            List<String> lines = output.getOut().lines().filter(line -> line.contains("Login throttled")
                    && line.contains(" from " + address + " ")).toList();
            assertThat(lines).as("WARN lines for " + address).hasSize(1);
            assertThat(lines.get(0)).contains("WARN", "'" + SECOND_OPERATOR + "'", "5 times");
        }
        assertThat(output.getAll()).doesNotContain(SECOND_PASSWORD).doesNotContain("wrong-1");
    }

    @Test
    @DisplayName("Scenario: Failed logins from one address throttle every name from it")
    void perAddress() {
        double throttledBefore = metric("claimguard_login_throttled_total", "limit=\"address\",method=\"basic\"");
        String sprayer = nextAddress();
        for (int i = 1; i <= 20; i++) {
            assertThat(basic(sprayer, "nobody-" + i, "wrong").statusCode()).as("name %d", i).isEqualTo(401);
        }
        // every name from that address is refused now, the operator's right password too; from elsewhere it works
        assertThat(basic(sprayer, SECOND_OPERATOR, SECOND_PASSWORD).statusCode()).isEqualTo(429);
        assertThat(basic(sprayer, "nobody-21", "wrong").statusCode()).isEqualTo(429);
        assertThat(basic(nextAddress(), SECOND_OPERATOR, SECOND_PASSWORD).statusCode()).isEqualTo(200);
        assertThat(metric("claimguard_login_throttled_total", "limit=\"address\",method=\"basic\"") - throttledBefore)
                .isGreaterThanOrEqualTo(2);
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> basic(sprayer, SECOND_OPERATOR, SECOND_PASSWORD).statusCode() == 200);
    }

    @Test
    @DisplayName("Scenario: Failed logins of one name from several addresses throttle that name everywhere")
    void perName() {
        // four wrong passwords from each of three addresses: none reaches its own limit of five, the name's 12 together
        for (int address = 1; address <= 3; address++) {
            String from = nextAddress();
            for (int i = 1; i <= 4; i++) {
                assertThat(basic(from, SECOND_OPERATOR, "wrong").statusCode()).isEqualTo(401);
            }
        }
        String elsewhere = nextAddress();
        assertThat(basic(elsewhere, SECOND_OPERATOR, SECOND_PASSWORD).statusCode()).isEqualTo(429);
        // another operator from the same address is not concerned
        assertThat(basic(elsewhere, TestOperator.NAME, TestOperator.PASSWORD).statusCode()).isEqualTo(200);
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> basic(elsewhere, SECOND_OPERATOR, SECOND_PASSWORD).statusCode() == 200);
    }

    @Test
    @DisplayName("Scenario: A client is counted by its own address unless a trusted proxy forwards another")
    void clientAddress() {
        // 127.0.0.2 is not the proxy: its X-Forwarded-For is ignored, and its failures count against 127.0.0.2
        String named = nextAddress();
        for (int i = 1; i <= 5; i++) {
            assertThat(fromOtherClient(named, SECOND_OPERATOR, "wrong")).isEqualTo(401);
        }
        assertThat(fromOtherClient(nextAddress(), SECOND_OPERATOR, SECOND_PASSWORD)).as("127.0.0.2 is throttled")
                .isEqualTo(429);
        // the address it named was never throttled: through the proxy, the client there logs in
        assertThat(basic(named, SECOND_OPERATOR, SECOND_PASSWORD).statusCode()).isEqualTo(200);
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> fromOtherClient(named, SECOND_OPERATOR, SECOND_PASSWORD) == 200);
    }

    // ---- helpers

    /** An address of TEST-NET-3 that no other test uses, as the proxy on 127.0.0.1 forwards it. */
    private static String nextAddress() {
        return "203.0.113." + NEXT_ADDRESS.getAndIncrement();
    }

    /** GET of the actuator's detail with HTTP Basic, from {@code client} through the proxy. */
    private HttpResponse<String> basic(String client, String name, String password) {
        return send(HttpRequest.newBuilder(uri(DETAIL)).header("X-Forwarded-For", client)
                .header("Authorization", authorization(name, password)).build());
    }

    /** What the login form answered: where it sends the browser, and the session cookie it holds. */
    private record FormLogin(String location, String cookie) {
    }

    /** The login form as a browser at {@code client} fills it in: the page (its session and CSRF token), then the post. */
    private FormLogin formLogin(String client, String name, String password) {
        HttpResponse<String> form = page(client, null, "/login");
        String cookie = sessionCookie(form);
        Matcher csrf = CSRF.matcher(form.body());
        assertThat(csrf.find()).as("CSRF token in the login form").isTrue();
        String body = "username=" + encode(name) + "&password=" + encode(password) + "&_csrf=" + encode(csrf.group(1));
        HttpResponse<String> posted = send(HttpRequest.newBuilder(uri("/login")).header("X-Forwarded-For", client)
                .header("Cookie", cookie).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertThat(posted.statusCode()).as("the login form answers with a redirect").isEqualTo(302);
        String session = posted.headers().firstValue("Set-Cookie").isPresent() ? sessionCookie(posted) : cookie;
        return new FormLogin(posted.headers().firstValue("Location").orElse(""), session);
    }

    private HttpResponse<String> page(String client, String cookie, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("X-Forwarded-For", client);
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return send(request.build());
    }

    private static String sessionCookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(value -> value.startsWith("JSESSIONID="))
                .map(value -> value.substring(0, value.indexOf(';'))).findFirst()
                .orElseThrow(() -> new AssertionError("no session cookie in " + response.headers().map()));
    }

    /**
     * GET of the actuator's detail over a socket of its own from 127.0.0.2, which is not the trusted proxy, naming
     * {@code forwardedFor} in X-Forwarded-For all the same: the status code.
     */
    private int fromOtherClient(String forwardedFor, String name, String password) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
            socket.connect(new InetSocketAddress("127.0.0.1", managementPort), 5_000);
            socket.setSoTimeout(15_000);
            String request = "GET " + DETAIL + " HTTP/1.1\r\nHost: 127.0.0.1:" + managementPort + "\r\n"
                    + "X-Forwarded-For: " + forwardedFor + "\r\nAuthorization: " + authorization(name, password) + "\r\n"
                    + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(answer.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A counter's value in the scrape, the series whose labels contain {@code labels}. */
    private double metric(String name, String labels) {
        return anonymous("/actuator/prometheus").body().lines()
                .filter(line -> line.startsWith(name + "{") && line.contains(labels))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " with " + labels));
    }

    private static String authorization(String name, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + managementPort + path);
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
