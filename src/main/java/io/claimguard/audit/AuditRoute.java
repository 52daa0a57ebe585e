package io.claimguard.audit;

import io.claimguard.verify.Pipeline;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Commits one accepted input's audit rows and makes its effective result the body. A unit: when any step
 * fails, the verify route's error handler runs the whole of it again, statement included.
 */
@Component
public class AuditRoute extends RouteBuilder {

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.AUDIT)
                .routeId("audit")
                .process(AuditStatements::prepareVerificationInsert)
                .to("{{claimguard.endpoint.jdbc}}")
                .process(AuditStatements::readAuditRow);
    }
}
