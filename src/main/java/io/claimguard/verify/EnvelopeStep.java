package io.claimguard.verify;

import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.support.LogValue;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, projects, guards and judges one input (under the configured policy) with the domain core: it is accepted with its verification, or rejected. An
 * input its intake set aside already (a JMS message of a type that holds no envelope, an inbox entry that is not a
 * regular file, a file that failed too often) is not read; one its intake held only in part (a huge file) is rejected
 * as too large by its size.
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
        if (InputExchange.SET_ASIDE.matches(exchange)) {
            return;
        }
        ReceivedInput input = InputExchange.input(exchange);
        try {
            if (input.partial() != null) {
                // held only in part, being over the size limit: its size decides, before anything is decoded
                reader.checkSize(input.size());
                throw new IllegalStateException(input.source().label() + " input " + LogValue.of(input.sourceRef()) + " of "
                        + input.size() + " bytes was held only in part although it is within the size limit");
            }
            InputExchange.accept(exchange, Verification.of(reader.read(input.payload()), policy));
        } catch (EnvelopeRejectedException rejection) {
            LOG.warn("rejected {} input {} ({} bytes): {}", input.source().label(), LogValue.of(input.sourceRef()),
                    input.size(), LogValue.text(rejection.describe()));
            InputExchange.reject(exchange, new DeadLetter(rejection.reason(), rejection.getMessage()));
        }
    }
}
