package io.claimguard.telemetry;

import static io.claimguard.testkit.Envelopes.claimCheck;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.config.TestProperties;
import io.claimguard.domain.Finding;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.RejectionReason;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.testkit.Envelopes;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.testing.exporter.InMemoryLogRecordExporter;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OpenTelemetryEvaluationsTest {

    private static final String PRODUCER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PRODUCER_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + PRODUCER_TRACE + "-" + PRODUCER_SPAN + "-01";
    private static final String CLAIM_TEXT = "payment-service CPU usage is high";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final InMemoryLogRecordExporter events = InMemoryLogRecordExporter.create();
    private final OpenTelemetryEvaluations telemetry = new OpenTelemetryEvaluations(OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setLoggerProvider(SdkLoggerProvider.builder()
                    .addLogRecordProcessor(SimpleLogRecordProcessor.create(events)).build())
            .build());

    @AfterEach
    void close() {
        telemetry.close();
    }

    @Test
    @DisplayName("Scenario: An audited input's evaluation event")
    void inputEvent() {
        Verification verification = withFindings(downgradedTwoClaims().verify(),
                new Finding(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 0, "invocation 999 is not in trace-1"),
                new Finding(FindingCode.CONSISTENCY_CRITICAL_FACT_COUNT_MISMATCH, null, "3 said, 2 counted"));

        telemetry.completed(audited(verification, 42, ReceivedInput.Source.JMS, null));

        LogRecordData event = events.getFinishedLogRecordItems().get(0);
        assertThat(event.getEventName()).isEqualTo("gen_ai.evaluation.result");
        Attributes attributes = event.getAttributes();
        assertThat(attributes.get(EvaluationAttributes.EVALUATION_NAME)).isEqualTo("claimguard.verdict");
        assertThat(attributes.get(EvaluationAttributes.SCORE_LABEL)).isEqualTo("LOW_CONFID");
        assertThat(attributes.get(EvaluationAttributes.SCORE_VALUE)).isEqualTo(0.62);
        assertThat(attributes.get(EvaluationAttributes.EXPLANATION)).isEqualTo("guard: gatekeeper.fail");
        assertThat(attributes.get(EvaluationAttributes.RESPONSE_ID)).isEqualTo("req-1");
        assertThat(attributes.get(EvaluationAttributes.AUDIT_ID)).isEqualTo(42L);
        assertThat(attributes.get(EvaluationAttributes.SOURCE)).isEqualTo("jms");
        assertThat(attributes.get(EvaluationAttributes.MODEL_VERDICT)).isEqualTo("PASS");
        assertThat(attributes.get(EvaluationAttributes.DOWNGRADED)).isTrue();
        assertThat(attributes.get(EvaluationAttributes.GUARD_REASONS)).containsExactly("gatekeeper.fail");
        assertThat(attributes.get(EvaluationAttributes.PROJECTION_MODE)).isEqualTo("claim_checks");
        assertThat(attributes.get(EvaluationAttributes.FINDINGS))
                .containsExactly("evidence.unknown_invocation", "consistency.critical_fact_count_mismatch");
        assertThat(event.getSpanContext()).isEqualTo(spans.getFinishedSpanItems().get(0).getSpanContext());
    }

    @Test
    @DisplayName("Scenario: One evaluation event per claim check, without its text")
    void claimEvents() {
        Verification verification = withFindings(downgradedTwoClaims().verify(),
                new Finding(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, 1, "invocation 999 is not in trace-1"));

        telemetry.completed(audited(verification, 42, ReceivedInput.Source.KAFKA, null));

        List<LogRecordData> claims = events.getFinishedLogRecordItems().subList(1, 3);
        assertThat(events.getFinishedLogRecordItems()).hasSize(3);
        Attributes first = claims.get(0).getAttributes();
        assertThat(claims.get(0).getEventName()).isEqualTo("gen_ai.evaluation.result");
        assertThat(first.get(EvaluationAttributes.EVALUATION_NAME)).isEqualTo("claimguard.claim_verification");
        assertThat(first.get(EvaluationAttributes.SCORE_LABEL)).isEqualTo("direct_observation");
        assertThat(first.get(EvaluationAttributes.RESPONSE_ID)).isEqualTo("req-1");
        assertThat(first.get(EvaluationAttributes.AUDIT_ID)).isEqualTo(42L);
        assertThat(first.get(EvaluationAttributes.CLAIM_ORDINAL)).isEqualTo(0L);
        assertThat(first.get(EvaluationAttributes.CLAIM_ID)).isEqualTo("claim-1");
        assertThat(first.get(EvaluationAttributes.CLAIM_TYPE)).isEqualTo("symptom");
        assertThat(first.get(EvaluationAttributes.LEGACY_VERIFICATION)).isEqualTo("direct_evidence");
        assertThat(first.get(EvaluationAttributes.CRITICAL)).isTrue();
        assertThat(first.get(EvaluationAttributes.FINDINGS)).isEmpty();
        Attributes second = claims.get(1).getAttributes();
        assertThat(second.get(EvaluationAttributes.SCORE_LABEL)).isEqualTo("external_unknown");
        assertThat(second.get(EvaluationAttributes.CLAIM_ORDINAL)).isEqualTo(1L);
        assertThat(second.get(EvaluationAttributes.CLAIM_TYPE)).isEqualTo("context");
        assertThat(second.get(EvaluationAttributes.LEGACY_VERIFICATION)).isEqualTo("no_evidence");
        assertThat(second.get(EvaluationAttributes.CRITICAL)).isFalse();
        assertThat(second.get(EvaluationAttributes.FINDINGS)).containsExactly("evidence.unknown_invocation");
        assertThat(events.getFinishedLogRecordItems())
                .allSatisfy(event -> assertThat(event.getAttributes().asMap().values().toString())
                        .doesNotContain(CLAIM_TEXT).doesNotContain("detail of"))
                .allSatisfy(event -> assertThat(event.getSpanContext())
                        .isEqualTo(spans.getFinishedSpanItems().get(0).getSpanContext()));
    }

    @Test
    @DisplayName("Scenario: A traceparent continues the producer's trace")
    void continuesTheProducersTrace() {
        telemetry.completed(audited(downgradedTwoClaims().verify(), 1, ReceivedInput.Source.JMS, TRACEPARENT));

        SpanData span = spans.getFinishedSpanItems().get(0);
        assertThat(span.getTraceId()).isEqualTo(PRODUCER_TRACE);
        assertThat(span.getParentSpanId()).isEqualTo(PRODUCER_SPAN);
        assertThat(span.getSpanId()).isNotEqualTo(PRODUCER_SPAN);
        assertThat(span.getName()).isEqualTo("claimguard process");
        assertThat(span.getAttributes().get(OpenTelemetryEvaluations.OUTCOME)).isEqualTo("audited");
        assertThat(span.getAttributes().get(EvaluationAttributes.RESPONSE_ID)).isEqualTo("req-1");
        assertThat(events.getFinishedLogRecordItems())
                .allSatisfy(event -> assertThat(event.getSpanContext().getTraceId()).isEqualTo(PRODUCER_TRACE));
    }

    @Test
    @DisplayName("Scenario: A file's envelope field traceparent continues the producer's trace")
    void envelopeFieldContinuesTheTrace() {
        Verification verification = downgradedTwoClaims().set("traceparent", "'" + TRACEPARENT + "'").verify();

        telemetry.completed(audited(verification, 1, ReceivedInput.Source.FILE, null));

        SpanData span = spans.getFinishedSpanItems().get(0);
        assertThat(span.getTraceId()).isEqualTo(PRODUCER_TRACE);
        assertThat(span.getParentSpanId()).isEqualTo(PRODUCER_SPAN);
    }

    @Test
    @DisplayName("Scenario: Without a traceparent an input starts a new trace")
    void newTrace() {
        telemetry.completed(audited(downgradedTwoClaims().verify(), 1, ReceivedInput.Source.FILE, null));
        telemetry.completed(audited(downgradedTwoClaims().verify(), 2, ReceivedInput.Source.FILE, null));

        List<SpanData> finished = spans.getFinishedSpanItems();
        assertThat(finished).hasSize(2).allSatisfy(span -> {
            assertThat(span.getParentSpanId()).isEqualTo(SpanId.getInvalid());
            assertThat(span.getSpanContext().isValid()).isTrue();
        });
        assertThat(finished.get(0).getTraceId()).isNotEqualTo(finished.get(1).getTraceId());
    }

    @Test
    @DisplayName("Scenario: A malformed traceparent is ignored")
    void malformedTraceparent() {
        for (String malformed : List.of("", "not a traceparent", "00-" + PRODUCER_TRACE + "-" + PRODUCER_SPAN,
                "00-00000000000000000000000000000000-" + PRODUCER_SPAN + "-01", "zz-" + PRODUCER_TRACE + "-" + PRODUCER_SPAN + "-01")) {
            telemetry.completed(audited(downgradedTwoClaims().verify(), 1, ReceivedInput.Source.JMS, malformed));
        }

        assertThat(spans.getFinishedSpanItems()).hasSize(5).allSatisfy(span -> {
            assertThat(span.getParentSpanId()).isEqualTo(SpanId.getInvalid());
            assertThat(span.getTraceId()).isNotEqualTo(PRODUCER_TRACE);
        });
        assertThat(events.getFinishedLogRecordItems()).hasSize(5 * 3);
    }

    @Test
    @DisplayName("Scenario: A duplicate has its span but no evaluation event")
    void duplicate() {
        Exchange exchange = exchange(ReceivedInput.Source.JMS, TRACEPARENT);
        InputExchange.accept(exchange, downgradedTwoClaims().verify());
        InputExchange.audited(exchange, 7, false);

        telemetry.completed(exchange);

        assertThat(spans.getFinishedSpanItems()).singleElement()
                .satisfies(span -> assertThat(span.getAttributes().get(OpenTelemetryEvaluations.OUTCOME)).isEqualTo("duplicate"));
        assertThat(events.getFinishedLogRecordItems()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: A set-aside input's span is an error")
    void setAside() {
        Exchange exchange = exchange(ReceivedInput.Source.FILE, null);
        InputExchange.reject(exchange, new DeadLetter(RejectionReason.NOT_JSON, "not JSON at byte 0"));

        telemetry.completed(exchange);

        SpanData span = spans.getFinishedSpanItems().get(0);
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getAttributes().get(OpenTelemetryEvaluations.ERROR_TYPE)).isEqualTo("not_json");
        assertThat(span.getAttributes().get(OpenTelemetryEvaluations.OUTCOME)).isEqualTo("rejected");
        assertThat(events.getFinishedLogRecordItems()).isEmpty();
    }

    @Test
    @DisplayName("Scenario: Telemetry is off by default")
    void offByDefault() {
        // application.yml as it is, and telemetry switched off with an endpoint given
        assertThat(new TelemetryConfiguration().inputTelemetry(TestProperties.claimGuard())).isSameAs(InputTelemetry.OFF);
        assertThat(new TelemetryConfiguration().inputTelemetry(TestProperties.claimGuard("claimguard.telemetry.enabled=false",
                "claimguard.telemetry.otlp-endpoint=http://localhost:4318"))).isSameAs(InputTelemetry.OFF);
    }

    /** Model PASS under a failed gatekeeper (LOW_CONFID), a score of 0.62, a critical and a non-critical claim. */
    private static Envelopes downgradedTwoClaims() {
        return Envelopes.clean()
                .input("gatekeeper_result", "{'status': 'fail', 'failures': [{'check': 'other', 'detail': 'x'}]}")
                .output("groundedness_score", "0.62")
                .claimChecks(claimCheck("claim-1", CLAIM_TEXT, "symptom", "direct_observation"),
                        claimCheck("claim-2", "detail of a deploy", "context", "external_unknown"));
    }

    private static Verification withFindings(Verification verification, Finding... findings) {
        return new Verification(verification.envelope(), verification.projection(), verification.guard(), List.of(findings));
    }

    private static Exchange audited(Verification verification, long auditId, ReceivedInput.Source source, String traceparent) {
        Exchange exchange = exchange(source, traceparent);
        InputExchange.accept(exchange, verification);
        InputExchange.audited(exchange, auditId, true);
        return exchange;
    }

    private static Exchange exchange(ReceivedInput.Source source, String traceparent) {
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        InputExchange.receive(exchange, new ReceivedInput(source, "ref-1", OffsetDateTime.now().minusSeconds(1),
                "{}".getBytes(StandardCharsets.UTF_8), null, traceparent));
        return exchange;
    }
}
