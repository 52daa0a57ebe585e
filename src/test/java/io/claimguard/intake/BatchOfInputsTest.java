package io.claimguard.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.domain.RejectionReason;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.ReceivedInput;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BatchOfInputsTest {

    private final CamelContext camel = new DefaultCamelContext();

    @Test
    @DisplayName("An input taken in keeps nothing of the message it came in, and its result is the intake's to send")
    void receiveDropsTheMessage() {
        Exchange exchange = new DefaultExchange(camel);
        exchange.getIn().setBody("the message");
        exchange.getIn().setHeader("JMSCorrelationID", "from the producer");

        BatchOfInputs.receive(exchange, input("a"));

        assertThat(InputExchange.input(exchange).sourceRef()).isEqualTo("a");
        assertThat(exchange.getIn().getBody()).isNull();
        assertThat(exchange.getIn().getHeaders()).isEmpty();
    }

    @Test
    @DisplayName("The end of a batch settles each input in order, and fails on one neither forwarded nor set aside")
    void settleEachInputInOrder() throws Exception {
        Exchange forwarded = received("forwarded");
        InputExchange.audited(forwarded, 1, true);
        Exchange rejected = received("rejected");
        InputExchange.reject(rejected, new DeadLetter(RejectionReason.NOT_JSON, "bad"));
        Exchange duplicate = received("duplicate");
        InputExchange.audited(duplicate, 1, false);
        Exchange batch = batchOf(forwarded, rejected, duplicate);
        List<String> settled = new ArrayList<>();

        BatchOfInputs.settle(batch, ReceivedInput.Source.KAFKA,
                input -> settled.add("sent " + InputExchange.input(input).sourceRef()),
                input -> settled.add("set aside " + InputExchange.input(input).sourceRef()));

        assertThat(settled).containsExactly("sent forwarded", "set aside rejected", "sent duplicate");
        assertThatThrownBy(() -> BatchOfInputs.settle(batchOf(received("lost")), ReceivedInput.Source.JMS,
                input -> { }, input -> { }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("jms input lost left the pipeline neither forwarded nor set aside");
    }

    private Exchange batchOf(Exchange... inputs) {
        BatchOfInputs aggregation = new BatchOfInputs();
        Exchange batch = null;
        for (Exchange input : inputs) {
            batch = aggregation.aggregate(batch, input);
        }
        return batch;
    }

    private Exchange received(String sourceRef) {
        Exchange exchange = new DefaultExchange(camel);
        BatchOfInputs.receive(exchange, input(sourceRef));
        return exchange;
    }

    private static ReceivedInput input(String sourceRef) {
        return new ReceivedInput(ReceivedInput.Source.JMS, sourceRef, OffsetDateTime.now(),
                "{}".getBytes(StandardCharsets.UTF_8), null, null);
    }
}
