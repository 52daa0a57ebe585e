package io.claimguard.verify;

import io.claimguard.audit.AuditStatements;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Verification;
import io.claimguard.ingest.ReceivedInput;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, projects and guards one input with the domain core. An accepted envelope becomes the
 * {@link Pipeline#VERIFICATION}; a rejected one gets outcome {@link Outcome#REJECTED} and its dead_letter
 * statement.
 */
final class EnvelopeStep implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeStep.class);

    private final EnvelopeReader reader;

    EnvelopeStep(EnvelopeReader reader) {
        this.reader = reader;
    }

    @Override
    public void process(Exchange exchange) {
        ReceivedInput input = exchange.getProperty(Pipeline.INPUT, ReceivedInput.class);
        try {
            exchange.setProperty(Pipeline.VERIFICATION, Verification.of(reader.read(input.payload())));
        } catch (EnvelopeRejectedException rejection) {
            LOG.warn("rejected {} input {} ({} bytes): {}", input.source(), input.sourceRef(), input.payload().length,
                    rejection.describe());
            exchange.setProperty(Pipeline.OUTCOME, Outcome.REJECTED);
            AuditStatements.prepareDeadLetterInsert(exchange, rejection.reason().code(), rejection.getMessage());
        }
    }
}
