package io.claimguard.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * An OTLP/HTTP receiver (http/protobuf) on a free loopback port, as an OpenTelemetry Collector's {@code otlp} receiver
 * takes spans on {@code /v1/traces} and log records on {@code /v1/logs}; it decodes them with the OTLP's own protobuf
 * messages ({@code opentelemetry-proto}) and keeps them. The Collector itself is not in the registries this build
 * may use.
 */
final class OtlpReceiver implements AutoCloseable {

    /** A span as received: ids in lower-case hex, attributes as text. */
    record ReceivedSpan(String name, String traceId, String spanId, String parentSpanId, Map<String, String> attributes) {
    }

    /** A log record as received: its event name, the span it was emitted in, attributes as text. */
    record ReceivedEvent(String eventName, String traceId, String spanId, Map<String, String> attributes) {
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<ReceivedEvent> events = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            OtlpReceiver receiver = new OtlpReceiver(server);
            server.createContext("/v1/traces", receiver::traces);
            server.createContext("/v1/logs", receiver::logs);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    List<ReceivedEvent> events() {
        return List.copyOf(events);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void traces(HttpExchange exchange) throws IOException {
        try (InputStream body = exchange.getRequestBody()) {
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
            request.getResourceSpansList().forEach(resource -> resource.getScopeSpansList().forEach(scope ->
                    scope.getSpansList().forEach(span -> spans.add(received(span)))));
        }
        respond(exchange, ExportTraceServiceResponse.getDefaultInstance().toByteArray());
    }

    private void logs(HttpExchange exchange) throws IOException {
        try (InputStream body = exchange.getRequestBody()) {
            ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(body);
            request.getResourceLogsList().forEach(resource -> resource.getScopeLogsList().forEach(scope ->
                    scope.getLogRecordsList().forEach(log -> events.add(received(log)))));
        }
        respond(exchange, ExportLogsServiceResponse.getDefaultInstance().toByteArray());
    }

    private static void respond(HttpExchange exchange, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static ReceivedSpan received(Span span) {
        return new ReceivedSpan(span.getName(), hex(span.getTraceId().toByteArray()), hex(span.getSpanId().toByteArray()),
                hex(span.getParentSpanId().toByteArray()), text(span.getAttributesList()));
    }

    private static ReceivedEvent received(LogRecord log) {
        return new ReceivedEvent(log.getEventName(), hex(log.getTraceId().toByteArray()), hex(log.getSpanId().toByteArray()),
                text(log.getAttributesList()));
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static Map<String, String> text(List<KeyValue> attributes) {
        return attributes.stream().collect(Collectors.toMap(KeyValue::getKey, attribute -> text(attribute.getValue())));
    }

    private static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case INT_VALUE -> Long.toString(value.getIntValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpReceiver::text)
                    .collect(Collectors.joining(",", "[", "]"));
            default -> value.toString();
        };
    }
}
