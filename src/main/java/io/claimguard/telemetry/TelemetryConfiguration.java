package io.claimguard.telemetry;

import io.claimguard.config.ClaimGuardProperties;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * OpenTelemetry for ClaimGuard alone, built here only when {@code claimguard.telemetry.enabled}: an SDK of its own (no
 * global instance, no instrumentation of anything else) whose batch processors export spans and events by OTLP
 * http/protobuf. Off, the pipeline gets {@link InputTelemetry#OFF} and no SDK, exporter or thread exists.
 */
@Configuration(proxyBeanMethods = false)
public class TelemetryConfiguration {

    static final String SERVICE_NAME = "claimguard";

    @Bean
    InputTelemetry inputTelemetry(ClaimGuardProperties properties) {
        ClaimGuardProperties.Telemetry telemetry = properties.telemetry();
        if (telemetry == null || !telemetry.enabled()) {
            return InputTelemetry.OFF;
        }
        return new OpenTelemetryEvaluations(otlp(telemetry.otlpEndpoint(), properties.instanceName()));
    }

    static OpenTelemetrySdk otlp(String endpoint, String instanceName) {
        String base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(
                AttributeKey.stringKey("service.name"), SERVICE_NAME,
                AttributeKey.stringKey("service.instance.id"), instanceName)));
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .setResource(resource)
                        .addSpanProcessor(BatchSpanProcessor.builder(
                                OtlpHttpSpanExporter.builder().setEndpoint(base + "/v1/traces").build()).build())
                        .build())
                .setLoggerProvider(SdkLoggerProvider.builder()
                        .setResource(resource)
                        .addLogRecordProcessor(BatchLogRecordProcessor.builder(
                                OtlpHttpLogRecordExporter.builder().setEndpoint(base + "/v1/logs").build()).build())
                        .build())
                .build();
    }
}
