package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestDatabase;
import io.claimguard.testkit.TestOperator;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The jar as it runs by default for the explorer (off), with Prometheus closed and the port bound to loopback, as on
 * Kubernetes: the pages are not served, the management port's rules hold all the same, and failed logins count by the
 * socket's address whatever X-Forwarded-For says.
 */
class ExplorerOffIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @DisplayName("Scenario: Switched off, the explorer serves nothing and the management port's rules still hold")
    void offByDefault() throws Exception {
        Path work = Files.createTempDirectory("claimguard-explorer-off-");
        TestDatabase database = TestDatabase.createSeparate();
        int port = FreePort.onLoopback();
        Map<String, String> properties = new HashMap<>(Map.of(
                "spring.datasource.url", database.jdbcUrl(),
                "spring.datasource.username", database.username(),
                "spring.datasource.password", database.password(),
                "claimguard.file.inbox", work.resolve("inbox").toString(),
                "claimguard.file.outbox", work.resolve("outbox").toString(),
                "claimguard.broker.data-directory", work.resolve("artemis").toString(),
                "claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + FreePort.onLoopback(),
                "claimguard.management.port", Integer.toString(port),
                "claimguard.management.address", "127.0.0.1",
                "claimguard.management.prometheus-public", "false"));
        // as Boot finds itself on Kubernetes, where it would trust X-Forwarded-For from private addresses by itself
        properties.put("spring.main.cloud-platform", "kubernetes");
        ServiceProcess service = new ServiceProcess(ServiceProcess.findJar(), properties, work, port);
        try {
            service.start();
            service.awaitReady(PATIENCE);

            for (String page : List.of("/explorer", "/explorer/audits", "/login", "/explorer/explorer.css", "/")) {
                HttpResponse<String> answer = get(port, page, false);
                assertThat(answer.statusCode()).as(page).isEqualTo(403);
                assertThat(get(port, page, true).statusCode()).as(page + " as the operator").isEqualTo(403);
            }
            HttpResponse<String> health = get(port, "/actuator/health", false);
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"").doesNotContain("components").doesNotContain("\"db\"");
            assertThat(get(port, "/actuator/health", true).body()).contains("\"components\"", "\"db\"");
            for (String closed : List.of("/actuator/prometheus", "/actuator/camelroutes", "/actuator/health/db")) {
                assertThat(get(port, closed, false).statusCode()).as(closed).isEqualTo(401);
                assertThat(get(port, closed, true).statusCode()).as(closed + " as the operator").isEqualTo(200);
            }
            assertThat(get(port, "/actuator/health/liveness", false).statusCode()).isEqualTo(200);
            assertThat(get(port, "/actuator/health/readiness", false).statusCode()).isEqualTo(200);
            // failed logins count by the socket's address: naming other addresses in X-Forwarded-For does not help
            for (int i = 1; i <= 5; i++) {
                assertThat(basic(port, "203.0.113." + i, TestOperator.NAME, "wrong").statusCode()).isEqualTo(401);
            }
            HttpResponse<String> throttled = basic(port, "203.0.113.99", TestOperator.NAME, TestOperator.PASSWORD);
            assertThat(throttled.statusCode()).as("X-Forwarded-For ignored").isEqualTo(429);
            // bound to loopback: another interface of this host is not answered
            Optional<InetAddress> other = otherAddress();
            if (other.isPresent()) {
                try (Socket socket = new Socket()) {
                    org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> socket.connect(new InetSocketAddress(other.get(), port), 2000))
                            .as("connect to " + other.get()).isInstanceOf(IOException.class);
                }
            }
        } finally {
            service.close();
            database.drop();
        }
    }

    private static HttpResponse<String> get(int port, String path, boolean operator) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(15));
        if (operator) {
            request.header("Authorization", TestOperator.basicAuthorization());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GET of camelroutes with HTTP Basic, naming {@code forwardedFor} in X-Forwarded-For. */
    private static HttpResponse<String> basic(int port, String forwardedFor, String name, String password) throws Exception {
        String credentials = Base64.getEncoder().encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/camelroutes"))
                .timeout(Duration.ofSeconds(15)).header("X-Forwarded-For", forwardedFor)
                .header("Authorization", "Basic " + credentials).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An IPv4 address of this host that is not loopback, if it has one. */
    private static Optional<InetAddress> otherAddress() throws IOException {
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (network.isUp() && !network.isLoopback()) {
                for (InetAddress address : Collections.list(network.getInetAddresses())) {
                    if (address instanceof Inet4Address) {
                        return Optional.of(address);
                    }
                }
            }
        }
        return Optional.empty();
    }
}
