package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.claimguard.domain.FindingCode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class OperabilityIT extends ServiceTestSupport {

    /** A row of the metrics table in docs/operating.md: the Prometheus name in back quotes in the first column. */
    private static final String README_METRICS_HEADER = "| metric | labels | meaning |";
    private static final Pattern README_METRIC_ROW = Pattern.compile("^\\| `(claimguard_[a-z_]+)`");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MeterRegistry meters;

    @Autowired
    CamelContext camel;

    @Test
    @DisplayName("Scenario: Health is DOWN while PostgreSQL is unreachable and UP again after")
    void healthFollowsTheDatabase() {
        await().atMost(PATIENCE).until(() -> management("/actuator/health").statusCode() == 200);
        DATABASE_PROXY.cut();
        try {
            await().atMost(PATIENCE).until(() -> management("/actuator/health").statusCode() == 503);
            JsonNode health = JSON.readTree(management("/actuator/health").body());
            assertThat(health.at("/components/db/status").stringValue()).isEqualTo("DOWN");
            assertThat(management("/actuator/health/readiness").statusCode()).isEqualTo(503);
            assertThat(management("/actuator/health/liveness").statusCode())
                    .as("an unreachable database must not get the service restarted").isEqualTo(200);
        } finally {
            DATABASE_PROXY.restore();
        }
        await().atMost(PATIENCE).until(() -> management("/actuator/health").statusCode() == 200);
        assertThat(management("/actuator/health/readiness").statusCode()).isEqualTo(200);
    }

    @Test
    @DisplayName("Scenario: Health is DOWN while a route is stopped")
    void healthFollowsTheRoutes() throws Exception {
        camel.getRouteController().stopRoute("file-intake");
        try {
            await().atMost(PATIENCE).until(() -> management("/actuator/health").statusCode() == 503);
            assertThat(JSON.readTree(management("/actuator/health").body()).at("/components/camelHealth/status").stringValue())
                    .isEqualTo("DOWN");
        } finally {
            camel.getRouteController().startRoute("file-intake");
        }
        await().atMost(PATIENCE).until(() -> management("/actuator/health").statusCode() == 200);
    }

    @Test
    @DisplayName("Scenario: Info shows the build version and the Camel routes are listed")
    void infoAndRoutes() {
        JsonNode info = JSON.readTree(management("/actuator/info").body());
        assertThat(info.at("/build/version").stringValue()).isNotBlank();
        assertThat(info.at("/build/artifact").stringValue()).isEqualTo("claimguard");
        assertThat(management("/actuator/camelroutes").body()).contains("\"verify\"", "\"jms-intake\"", "\"file-intake\"");
    }

    @Test
    @DisplayName("Scenario: Counters and the processing histogram move as inputs of known shapes flow")
    void countersMoveWithTheInputs() {
        // other test classes share this service; an input of theirs still in flight would move the counters too
        awaitNoInputInFlight();
        double passes = counter("claimguard.audited", "verdict", "PASS", "model_verdict", "PASS", "source", "jms");
        double rejects = counter("claimguard.audited", "verdict", "REJECT", "model_verdict", "PASS", "source", "jms");
        double invocationRefDowngrades = counter("claimguard.downgrades", "reason", "gatekeeper.invocation_ref");
        double notJson = counter("claimguard.rejections", "reason", "not_json", "source", "jms");
        double deadLetters = counter("claimguard.dead.letters", "reason", "not_json", "source", "jms");
        double duplicates = counter("claimguard.duplicates", "source", "jms");
        long processed = timerCount("audited") + timerCount("duplicate") + timerCount("rejected");

        String passing = passingV1(uniqueId("metrics-pass"));
        sendText(passing, "metrics");
        sendText(passing, "metrics");
        sendText(gatekeeperFailedV2(uniqueId("metrics-reject")), "metrics");
        sendText("{not json", "metrics");

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(counter("claimguard.audited", "verdict", "PASS", "model_verdict", "PASS", "source", "jms"))
                    .isEqualTo(passes + 1);
            assertThat(counter("claimguard.audited", "verdict", "REJECT", "model_verdict", "PASS", "source", "jms"))
                    .isEqualTo(rejects + 1);
            assertThat(counter("claimguard.downgrades", "reason", "gatekeeper.invocation_ref"))
                    .isEqualTo(invocationRefDowngrades + 1);
            assertThat(counter("claimguard.rejections", "reason", "not_json", "source", "jms")).isEqualTo(notJson + 1);
            assertThat(counter("claimguard.dead.letters", "reason", "not_json", "source", "jms")).isEqualTo(deadLetters + 1);
            assertThat(counter("claimguard.duplicates", "source", "jms")).isEqualTo(duplicates + 1);
            assertThat(timerCount("audited") + timerCount("duplicate") + timerCount("rejected")).isEqualTo(processed + 4);
        });
        String scrape = management("/actuator/prometheus").body();
        assertThat(scrape).contains("claimguard_audited_total{", "claimguard_processing_seconds_bucket{",
                "claimguard_inbox_files", "claimguard_queue_depth{", "claimguard_camel_route_seconds_count{");
        assertThat(scrape.lines().filter(line -> line.startsWith("claimguard_audited_total{")))
                .allMatch(line -> line.contains("instance_id=\"" + INSTANCE_ID + "\""));
        // every finding code is scraped, at 0 until found
        assertThat(scrape.lines().filter(line -> line.startsWith("claimguard_findings_total{")))
                .hasSize(FindingCode.values().length)
                .anyMatch(line -> line.startsWith("claimguard_findings_total{code=\"evidence.unknown_invocation\","))
                .allMatch(line -> line.contains("instance_id=\"" + INSTANCE_ID + "\""));
    }

    @Test
    @DisplayName("Scenario: Every metric the docs list is exported under that name")
    void readmeMetricNamesAreExported() throws IOException {
        List<String> documented = Files.readAllLines(Path.of("docs/operating.md")).stream()
                .dropWhile(line -> !line.equals(README_METRICS_HEADER)).takeWhile(line -> !line.isBlank())
                .map(README_METRIC_ROW::matcher).filter(Matcher::find).map(row -> row.group(1)).toList();
        assertThat(documented).as("metric rows of docs/operating.md").hasSizeGreaterThan(10);
        String requestId = uniqueId("metric-names");
        String input = gatekeeperFailedV2(requestId);
        sendText(input, "metric-names");
        sendText(input, "metric-names");
        sendText("{not json", "metric-names");
        awaitAuditRow(requestId);

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<String> exported = management("/actuator/prometheus").body().lines()
                    .filter(line -> !line.startsWith("#")).map(line -> line.split("[{ ]", 2)[0]).distinct().toList();
            assertThat(documented).allSatisfy(name -> assertThat(exported).as(name)
                    .anyMatch(series -> series.equals(name) || series.matches(Pattern.quote(name) + "_(count|sum|max|bucket)")));
        });
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    @DisplayName("Scenario: The summary line counts claims by label and never shows claim text")
    void summaryLineCountsClaimsWithoutPayloadText(CapturedOutput output) {
        String requestId = uniqueId("summary-log");
        sendText(gatekeeperFailedV2(requestId), "summary");

        await().atMost(PATIENCE).until(() -> output.getOut().contains("request_id=" + requestId));
        String line = output.getOut().lines().filter(text -> text.contains("request_id=" + requestId)).findFirst().orElseThrow();
        assertThat(line).contains("audited", "instance_id=" + INSTANCE_ID, "verdict=REJECT", "model_verdict=PASS", "downgraded=true",
                "guard_reasons=[gatekeeper.invocation_ref]", "projection_mode=claim_checks", "claims=2",
                "critical_claims=2", "claim_verifications={direct_observation=1, external_unknown=1}",
                "facts_checked={total=2, critical=2, labels={direct_evidence=1, no_evidence=1}}");
        assertThat(line).doesNotContain("payment-service", "CPU=92", "deploy", "rationale");
    }

    private double counter(String name, String... tags) {
        return meters.find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Settled when two readings of every processing timer, a second apart, agree. */
    private void awaitNoInputInFlight() {
        long[] lastSeen = {-1};
        await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1)).until(() -> {
            long processedNow = meters.find("claimguard.processing").timers().stream().mapToLong(Timer::count).sum();
            boolean settled = processedNow == lastSeen[0];
            lastSeen[0] = processedNow;
            return settled;
        });
    }

    private long timerCount(String outcome) {
        return meters.find("claimguard.processing").tags("source", "jms", "outcome", outcome).timers().stream()
                .mapToLong(Timer::count).sum();
    }
}
