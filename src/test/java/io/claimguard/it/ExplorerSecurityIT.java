package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.claimguard.explorer.ExplorerDatabase;
import io.claimguard.explorer.WebSecurity;
import io.claimguard.testkit.TestOperator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.DataAccessException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Who may see what on the management port, at the HTTP level; and how the explorer reaches the database. */
@ExtendWith(OutputCaptureExtension.class)
class ExplorerSecurityIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    ExplorerDatabase explorerDatabase;

    @Autowired
    CamelContext camel;

    @Test
    @DisplayName("Scenario: Probes and scrapers need no login, every other actuator endpoint does")
    void actuatorRules() {
        for (String open : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness",
                "/actuator/prometheus")) {
            assertThat(anonymous(open).statusCode()).as(open).isEqualTo(200);
        }
        for (String closed : List.of("/actuator/health/db", "/actuator/camelroutes", "/actuator/metrics",
                "/actuator/metrics/jvm.memory.used", "/actuator/claimguard", "/actuator/info")) {
            HttpResponse<String> answer = anonymous(closed);
            assertThat(answer.statusCode()).as(closed).isEqualTo(401);
            assertThat(answer.body()).as(closed).doesNotContain("jms-intake").doesNotContain("\"UP\"");
            assertThat(management(closed).statusCode()).as(closed + " as the operator").isEqualTo(200);
        }
        JsonNode health = JSON.readTree(anonymous("/actuator/health").body());
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.has("components")).as("no components without a login: " + health).isFalse();
        JsonNode detailed = JSON.readTree(management("/actuator/health").body());
        assertThat(detailed.path("components").has("db")).as(detailed.toString()).isTrue();
        assertThat(detailed.path("components").has("camelHealth")).isTrue();
        HttpResponse<String> wrongPassword = send(HttpRequest.newBuilder(uri("/actuator/camelroutes"))
                .header("Authorization", "Basic b3BlcmF0b3I6d3Jvbmc=").build());
        assertThat(wrongPassword.statusCode()).isEqualTo(401);
    }

    @Test
    @DisplayName("Scenario: Explorer pages without a login redirect to the login page")
    void pagesNeedLogin() {
        for (String page : List.of("/explorer", "/explorer/audits", "/explorer/audits/1", "/explorer/audits/1/envelope.json",
                "/explorer/audits/1/effective-result.json", "/explorer/dead-letters", "/explorer/dead-letters/1",
                "/explorer/find?q=x", "/explorer/story?request_id=x", "/explorer/export/audits.csv?verdict=PASS",
                "/explorer/export/audits.jsonl", "/explorer/replays", "/explorer/replays/1")) {
            HttpResponse<String> answer = anonymous(page);
            assertThat(answer.statusCode()).as(page).isEqualTo(302);
            assertThat(answer.headers().firstValue("Location")).as(page).hasValueSatisfying(
                    location -> assertThat(location).endsWith("/login"));
            assertThat(answer.body()).as(page).isEmpty();
        }
        // HTTP Basic opens the actuator only: the pages want the form login and its session
        HttpResponse<String> basic = management("/explorer/audits");
        assertThat(basic.statusCode()).isEqualTo(302);
        assertThat(anonymous("/login").statusCode()).isEqualTo(200);
        assertThat(anonymous("/explorer/explorer.css").statusCode()).isEqualTo(200);
    }

    @Test
    @DisplayName("Scenario: Every answer carries a strict Content-Security-Policy")
    void contentSecurityPolicy() {
        for (String path : List.of("/login", "/explorer/audits", "/actuator/health", "/explorer/explorer.css")) {
            HttpResponse<String> answer = anonymous(path);
            assertThat(answer.headers().firstValue("Content-Security-Policy")).as(path)
                    .hasValue(WebSecurity.CONTENT_SECURITY_POLICY);
            assertThat(answer.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
        }
        assertThat(WebSecurity.CONTENT_SECURITY_POLICY).contains("default-src 'none'").doesNotContain("script-src")
                .doesNotContain("unsafe-inline");
    }

    @Test
    @DisplayName("Scenario: The explorer changes nothing")
    void nothingChanges() {
        // no page takes anything but GET: a POST, PUT or DELETE is refused before it reaches one
        for (String method : List.of("POST", "PUT", "DELETE")) {
            HttpResponse<String> answer = send(HttpRequest.newBuilder(uri("/explorer/audits"))
                    .method(method, HttpRequest.BodyPublishers.ofString("verdict=PASS")).build());
            assertThat(answer.statusCode()).as(method).isEqualTo(403);
        }
        // its connections act as claimguard_reader, read-only
        Map<String, Object> session = explorerDatabase.sql().queryForMap(
                "SELECT current_user AS role, current_setting('transaction_read_only') AS read_only");
        assertThat(session).containsEntry("role", "claimguard_reader").containsEntry("read_only", "on");
        assertThatThrownBy(() -> explorerDatabase.sql().update(
                "UPDATE claimguard.verification_audit SET effective_verdict = effective_verdict WHERE id = -1"))
                .isInstanceOf(DataAccessException.class).hasMessageContaining("read-only");
        // and were they not read-only, the role could still change nothing
        for (String table : List.of("verification_audit", "claim_check", "finding", "dead_letter", "audit_seal")) {
            assertThat(explorerDatabase.sql().queryForObject("""
                    SELECT has_table_privilege('claimguard.' || ?, 'INSERT') OR has_table_privilege('claimguard.' || ?, 'UPDATE')
                        OR has_table_privilege('claimguard.' || ?, 'DELETE') OR has_table_privilege('claimguard.' || ?, 'TRUNCATE')""",
                    Boolean.class, table, table, table, table)).as(table).isFalse();
        }
    }

    @Test
    @DisplayName("Scenario: Without a login, health is the status and nothing else")
    void healthStatusOnly() throws Exception {
        HttpResponse<String> up = anonymous("/actuator/health");
        assertThat(up.statusCode()).isEqualTo(200);
        assertThat(up.body()).isEqualTo("{\"status\":\"UP\"}");
        JsonNode detailed = JSON.readTree(management("/actuator/health").body());
        assertThat(detailed.path("components").has("db")).as(detailed.toString()).isTrue();
        assertThat(detailed.path("groups").toString()).contains("liveness", "readiness");

        camel.getRouteController().stopRoute("file-intake");
        try {
            await().atMost(PATIENCE).until(() -> anonymous("/actuator/health").statusCode() == 503);
            assertThat(anonymous("/actuator/health").body()).isEqualTo("{\"status\":\"DOWN\"}");
            assertThat(management("/actuator/health").body()).contains("\"camelHealth\"");
        } finally {
            camel.getRouteController().startRoute("file-intake");
        }
        await().atMost(PATIENCE).until(() -> anonymous("/actuator/health").statusCode() == 200);
    }

    @Test
    @DisplayName("Scenario: A write to the actuator is refused with 405, never an error")
    void actuatorTakesNoWrite(CapturedOutput output) {
        for (String path : List.of("/actuator/camelroutes/file-intake/stop", "/actuator/camelroutes/jms-intake/stop",
                "/actuator/health", "/actuator/prometheus", "/actuator/claimguard", "/actuator/info")) {
            for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
                for (boolean operator : new boolean[] {false, true}) {
                    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                            .method(method, HttpRequest.BodyPublishers.ofString("{}"));
                    if (operator) {
                        request.header("Authorization", TestOperator.basicAuthorization());
                    }
                    HttpResponse<String> answer = send(request);
                    String what = method + " " + path + (operator ? " as the operator" : "");
                    assertThat(answer.statusCode()).as(what).isEqualTo(405);
                    assertThat(answer.headers().firstValue("Allow")).as(what).hasValue("GET, HEAD");
                }
            }
        }
        // nothing was stopped, and nothing was logged as an error
        assertThat(camel.getRouteController().getRouteStatus("file-intake").isStarted()).isTrue();
        assertThat(camel.getRouteController().getRouteStatus("jms-intake").isStarted()).isTrue();
        assertThat(output.getAll().lines().filter(line -> line.contains(" ERROR ") || line.startsWith("\tat ")))
                .isEmpty();
    }

    @Test
    @DisplayName("Scenario: The session cookie is HttpOnly and SameSite=Lax, and Secure over HTTPS")
    void sessionCookie() {
        String plain = sessionCookieOf(send(HttpRequest.newBuilder(uri("/login"))));
        assertThat(plain).contains("; HttpOnly", "; SameSite=Lax").doesNotContain("Secure");
        // as a TLS-terminating proxy on 127.0.0.1 forwards an HTTPS request (server.forward-headers-strategy=native)
        String overHttps = sessionCookieOf(send(HttpRequest.newBuilder(uri("/login"))
                .header("X-Forwarded-Proto", "https")));
        assertThat(overHttps).contains("; Secure", "; HttpOnly", "; SameSite=Lax");
    }

    private static String sessionCookieOf(HttpResponse<String> answer) {
        return answer.headers().allValues("Set-Cookie").stream().filter(cookie -> cookie.startsWith("JSESSIONID="))
                .findFirst().orElseThrow(() -> new AssertionError("no session cookie: " + answer.headers().map()));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + managementPort + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        return send(request.build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
