package io.claimguard.intake;

import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultMessage;

/**
 * The aggregation of a batch's split: keeps every input's exchange, for the sends that follow in the batch's
 * transaction; the batch fails if any of its inputs failed, so that the intake takes the whole batch again. The steps
 * the batched intakes (JMS, Kafka) share are here too: taking an input in, and settling each at the end of the batch.
 */
final class BatchOfInputs implements AggregationStrategy {

    private static final String INPUTS = "claimguardBatchInputs";

    @Override
    public Exchange aggregate(Exchange batch, Exchange input) {
        Exchange result = batch != null ? batch : input;
        if (result.getProperty(INPUTS) == null) {
            result.setProperty(INPUTS, new ArrayList<Exchange>());
        }
        inputs(result).add(input);
        if (input.getException() != null && result.getException() == null) {
            result.setException(input.getException());
        }
        return result;
    }

    /** Every input exchange of the batch, in the order they came, once the split is done. */
    @SuppressWarnings("unchecked")
    static List<Exchange> inputs(Exchange batch) {
        return batch.getProperty(INPUTS, List.class);
    }

    /**
     * Takes an input of the batch in: the intake sends its result in the batch's own unit of work, and the message it
     * came in is dropped.
     */
    static void receive(Exchange exchange, ReceivedInput input) {
        InputExchange.receive(exchange, input);
        InputExchange.resultSentByIntake(exchange);
        // from here on the input lives in the exchange properties, and nothing of the message can leak onto the result
        exchange.setIn(new DefaultMessage(exchange));
    }

    /** What an intake does with one input of the batch at its end. */
    @FunctionalInterface
    interface Settle {
        void accept(Exchange input) throws Exception;
    }

    /**
     * Settles every input of the batch, in the order they came: a forwarded one's result is sent, a set-aside one goes
     * to the dead letters; one that is neither fails the batch.
     */
    static void settle(Exchange batch, ReceivedInput.Source source, Settle forwarded, Settle setAside) throws Exception {
        for (Exchange input : inputs(batch)) {
            if (InputExchange.FORWARDED.matches(input)) {
                forwarded.accept(input);
            } else if (InputExchange.SET_ASIDE.matches(input)) {
                setAside.accept(input);
            } else {
                throw new IllegalStateException(source.label() + " input " + InputExchange.input(input).sourceRef()
                        + " left the pipeline neither forwarded nor set aside");
            }
        }
    }
}
