package io.claimguard.audit;

import io.claimguard.pipeline.Pipeline;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Commits accepted inputs' audit rows. {@code audit} hands the input to the {@link AuditWriter}, which batches
 * concurrent inputs, writes each batch in one transaction and waits for the commit.
 * Failures go back to the caller: to the verify route, whose retry policy knows what they mean for the input.
 */
@Component
public class AuditRoute extends EndpointRouteBuilder {

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
    }
}
