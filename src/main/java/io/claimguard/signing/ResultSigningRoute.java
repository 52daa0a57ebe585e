package io.claimguard.signing;

import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.SignedResult;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * Signs the effective result (the body) after its audit rows are committed, on the input's own thread: before any
 * way of sending it (one at a time, in a group, in a JMS batch's or a Kafka batch's transaction), so that signing
 * never runs under their locks nor inside their transactions, and each way sends the signed text or bytes. A failure
 * goes back to the verify route like a failure to forward: the input comes again.
 */
@Component
public class ResultSigningRoute extends RouteBuilder {

    private final ResultSignatures.Signer signer;

    public ResultSigningRoute(ResultSignatures.Signer signer) {
        this.signer = signer;
    }

    @Override
    public void configure() {
        errorHandler(noErrorHandler());

        from(Pipeline.SIGN)
                .routeId("sign")
                .process(this::sign);
    }

    private void sign(Exchange exchange) {
        SignedResult signed = signer.sign(exchange.getIn().getBody(String.class));
        InputExchange.signed(exchange, signed);
        exchange.getIn().setBody(signed.text());
    }
}
