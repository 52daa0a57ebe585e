package io.claimguard.telemetry;

import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Outcome;
import io.claimguard.pipeline.ReceivedInput;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.time.Instant;
import java.util.List;
import org.apache.camel.Exchange;
import tools.jackson.databind.JsonNode;

/**
 * Reports each input to OpenTelemetry once it is done with: a span from its receipt to now, continuing the producer's
 * trace where the input carries a W3C {@code traceparent}, and, for an input audited now, one
 * {@code gen_ai.evaluation.result} event for the input and one per claim check, emitted as log records inside that
 * span. A duplicate has its span but no events: its evaluation was reported when it was audited.
 */
public final class OpenTelemetryEvaluations implements InputTelemetry, AutoCloseable {

    /** The instrumentation scope of the span and the events. */
    static final String SCOPE = "io.claimguard";
    /** The span of one input's processing. */
    static final String SPAN_NAME = "claimguard process";

    static final AttributeKey<String> SOURCE_REF = AttributeKey.stringKey("claimguard.source_ref");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("claimguard.outcome");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private static final TextMapGetter<String> TRACEPARENT_ONLY = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String traceparent) {
            return List.of(ReceivedInput.TRACEPARENT);
        }

        @Override
        public String get(String traceparent, String key) {
            return ReceivedInput.TRACEPARENT.equals(key) ? traceparent : null;
        }
    };

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;
    private final Logger events;

    public OpenTelemetryEvaluations(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        this.tracer = sdk.getTracer(SCOPE);
        this.events = sdk.getLogsBridge().get(SCOPE);
    }

    @Override
    public void completed(Exchange exchange) {
        ReceivedInput input = InputExchange.input(exchange);
        Verification verification = InputExchange.verification(exchange);
        Outcome outcome = InputExchange.outcome(exchange);
        Span span = tracer.spanBuilder(SPAN_NAME)
                .setParent(producerContext(input, verification))
                .setSpanKind(SpanKind.CONSUMER)
                .setStartTimestamp(input.receivedAt().toInstant())
                .setAttribute(EvaluationAttributes.SOURCE, input.source().label())
                .setAttribute(SOURCE_REF, input.sourceRef())
                .setAttribute(OUTCOME, outcome == null ? "unknown" : outcome.name().toLowerCase())
                .startSpan();
        if (verification != null) {
            span.setAttribute(EvaluationAttributes.RESPONSE_ID, verification.requestId());
        }
        if (outcome != null && outcome.setAside()) {
            String reason = InputExchange.deadLetter(exchange).reason().code();
            span.setAttribute(ERROR_TYPE, reason);
            span.setStatus(StatusCode.ERROR, reason);
        }
        if (outcome == Outcome.AUDITED) {
            Context inSpan = Context.root().with(span);
            long auditId = InputExchange.auditId(exchange);
            emit(inSpan, EvaluationAttributes.ofInput(verification, auditId, input.source()));
            for (ProjectedClaim claim : verification.projection().claims()) {
                emit(inSpan, EvaluationAttributes.ofClaim(verification, auditId, claim));
            }
        }
        span.end();
    }

    /** Flushes what is still queued and stops the exporters. */
    @Override
    public void close() {
        sdk.close();
    }

    private void emit(Context context, Attributes attributes) {
        events.logRecordBuilder()
                .setEventName(EvaluationAttributes.EVENT_NAME)
                .setContext(context)
                .setTimestamp(Instant.now())
                .setSeverity(Severity.INFO)
                .setAllAttributes(attributes)
                .emit();
    }

    /**
     * The producer's span as parent: from the transport's {@code traceparent}, else from the envelope's top-level
     * field (how a file carries it). None, or one that is not a valid W3C traceparent: the root, so a new trace.
     */
    private static Context producerContext(ReceivedInput input, Verification verification) {
        String traceparent = input.traceparent();
        if (traceparent == null && verification != null) {
            JsonNode field = verification.envelope().root().path(ReceivedInput.TRACEPARENT);
            traceparent = field.isString() ? field.stringValue() : null;
        }
        if (traceparent == null) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, TRACEPARENT_ONLY);
    }
}
