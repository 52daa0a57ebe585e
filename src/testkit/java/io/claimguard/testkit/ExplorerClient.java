package io.claimguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The audit explorer read over plain HTTP, as a browser would after the form login: logs {@link TestOperator} in
 * (with the login form's CSRF token) and keeps the session cookie, so that tests and measurements can fetch a page's
 * exact bytes and time its answer.
 */
public final class ExplorerClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"");

    private final String base;
    private final HttpClient http;

    /** One page as it was answered, and how long the answer took to arrive whole. */
    public record Page(int status, byte[] body, Duration took) {

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private ExplorerClient(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Logs {@link TestOperator} in on the management port of this host; fails unless the login succeeds. */
    public static ExplorerClient logIn(int managementPort) {
        ExplorerClient client = new ExplorerClient("http://127.0.0.1:" + managementPort);
        Page form = client.get("/login");
        Matcher token = CSRF.matcher(form.text());
        if (form.status() != 200 || !token.find()) {
            throw new IllegalStateException("no login form with a CSRF token at /login: " + form.status());
        }
        String body = "username=" + encode(TestOperator.NAME) + "&password=" + encode(TestOperator.PASSWORD)
                + "&_csrf=" + encode(token.group(1));
        HttpResponse<byte[]> answer = client.send(HttpRequest.newBuilder(client.uri("/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        String location = answer.headers().firstValue("Location").orElse("");
        if (answer.statusCode() != 302 || location.contains("error")) {
            throw new IllegalStateException("the login of " + TestOperator.NAME + " failed: " + answer.statusCode()
                    + " to " + location);
        }
        return client;
    }

    /** GET a path (with its query) in this session. */
    public Page get(String path) {
        long start = System.nanoTime();
        HttpResponse<byte[]> answer = send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60)).GET().build());
        return new Page(answer.statusCode(), answer.body(), Duration.ofNanos(System.nanoTime() - start));
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    private HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
