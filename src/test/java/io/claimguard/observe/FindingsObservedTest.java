package io.claimguard.observe;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.claimguard.config.TestProperties;
import io.claimguard.telemetry.InputTelemetry;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.testkit.Envelopes;
import io.claimguard.testkit.Verifications;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The counters and the summary line of findings, for verifications whose findings the test chooses. */
class FindingsObservedTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PipelineObserver observer = new PipelineObserver(registry,
            TestProperties.claimGuard("claimguard.instance-id=unit-instance"),
            InputTelemetry.OFF);
    private final Logger summaryLogger = (Logger) LoggerFactory.getLogger("io.claimguard.audit.summary");
    private final ListAppender<ILoggingEvent> summaryLines = new ListAppender<>();

    @BeforeEach
    void captureSummaryLines() {
        summaryLines.start();
        summaryLogger.addAppender(summaryLines);
    }

    @AfterEach
    void releaseSummaryLines() {
        summaryLogger.detachAppender(summaryLines);
    }

    @Test
    @DisplayName("Scenario: Each finding is counted under its code")
    void eachFindingIsCountedUnderItsCode() {
        assertThat(registry.find("claimguard.findings").counters()).as("every code registered before any finding")
                .hasSize(FindingCode.values().length).allSatisfy(counter -> assertThat(counter.count()).isZero());

        observer.audited(auditedExchange(withThreeFindings("req-counted"), true));
        // a byte-identical input made no new rows and counts no finding again
        observer.audited(auditedExchange(withThreeFindings("req-counted"), false));

        assertThat(findings("evidence.unknown_invocation")).isEqualTo(2);
        assertThat(findings("consistency.critical_fact_count_mismatch")).isEqualTo(1);
        assertThat(registry.find("claimguard.findings").counters().stream().mapToDouble(Counter::count).sum())
                .isEqualTo(3);
    }

    @Test
    @DisplayName("Scenario: The summary line lists the finding codes and never their details")
    void summaryLineListsFindingCodes() {
        observer.audited(auditedExchange(withThreeFindings("req-with-findings"), true));
        observer.audited(auditedExchange(Verifications.withFindings(
                Envelopes.clean().set("request_id", "'req-without-findings'").verify(), List.of()), true));

        assertThat(line("req-with-findings"))
                .endsWith(" findings=[evidence.unknown_invocation,consistency.critical_fact_count_mismatch]")
                .doesNotContain("source_invocation_ids", "401", "critical claims were checked");
        assertThat(line("req-without-findings")).endsWith(" findings=[]");
    }

    private static Verification withThreeFindings(String requestId) {
        return Verifications.withFindings(Envelopes.clean().set("request_id", "'" + requestId + "'").verify(),
                Verifications.threeFindings());
    }

    private static Exchange auditedExchange(Verification verification, boolean created) {
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.JMS, "ID:" + verification.requestId(),
                OffsetDateTime.now(), verification.envelope().json().getBytes(StandardCharsets.UTF_8), null, null));
        InputExchange.accept(exchange, verification);
        InputExchange.audited(exchange, 7L, created);
        return exchange;
    }

    private double findings(String code) {
        return registry.get("claimguard.findings").tag("code", code).counter().count();
    }

    private String line(String requestId) {
        List<String> lines = summaryLines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(message -> message.contains("request_id=" + requestId + " ")).toList();
        assertThat(lines).as("summary lines of " + requestId).hasSize(1);
        return lines.get(0);
    }
}
