package io.claimguard.intake;

import java.util.ArrayList;
import java.util.List;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;

/**
 * The aggregation of a batch's split: keeps every input's exchange, for the sends that follow in the batch's
 * transaction; the batch fails if any of its inputs failed, so that the intake takes the whole batch again.
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
}
