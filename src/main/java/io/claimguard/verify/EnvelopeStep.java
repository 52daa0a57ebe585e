package io.claimguard.verify;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, projects, guards and judges one input (under the configured policy) with the domain core: it is accepted with its verification, or rejected. An
 * input its intake rejected already (a JMS message of a type that holds no envelope) is not read.
 */
final class EnvelopeStep implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeStep.class);

    private final EnvelopeReader reader;
    private final Policy policy;

    EnvelopeStep(EnvelopeReader reader, Policy policy) {
        this.reader = reader;
        this.policy = policy;
    }

    @Override
    public void process(Exchange exchange) {
        if (InputExchange.REJECTED.matches(exchange)) {
            return;
        }
        ReceivedInput input = InputExchange.input(exchange);
        try {
            InputExchange.accept(exchange, Verification.of(reader.read(input.payload()), policy));
        } catch (EnvelopeRejectedException rejection) {
            LOG.warn("rejected {} input {} ({} bytes): {}", input.source().label(), input.sourceRef(),
                    input.payload().length, rejection.describe());
            InputExchange.reject(exchange, new DeadLetter(rejection.reason(), rejection.getMessage()));
        }
    }
}
