package io.claimguard.audit;

import io.claimguard.pipeline.Pipeline;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Commits accepted inputs' audit rows. {@code audit} hands the input to the {@link AuditWriter}, which batches
 * concurrent inputs and waits for the commit; {@code audit-batch} runs a batch's one statement through camel-jdbc.
 * Failures go back to the caller: to the verify route, whose retry policy knows what they mean for the input.
 */
@Component
public class AuditRoute extends EndpointRouteBuilder {

    /** Runs one batch statement (the body, its parameters in {@code CamelJdbcParameters}) and returns its rows. */
    static final String WRITE_BATCH = "direct:audit-batch";

    private final AuditWriter writer;

    public AuditRoute(AuditWriter writer) {
        this.writer = writer;
    }

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.AUDIT)
                .routeId("audit")
                .process(writer::audit);

        from(WRITE_BATCH)
                .routeId("audit-batch")
                .to(jdbc("dataSource").useHeadersAsParameters(true));
    }
}
