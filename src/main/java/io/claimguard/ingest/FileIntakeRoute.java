package io.claimguard.ingest;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.verify.Pipeline;
import java.time.OffsetDateTime;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.stereotype.Component;

/**
 * The file drop: every complete {@code *.json} file in the inbox is one input. It moves to {@code .done/}
 * once its audit rows are committed and its result forwarded, or to {@code .error/} once its dead_letter row
 * is; on any other failure it stays in the inbox and is tried again at the next poll. Files are processed
 * {@code claimguard.file.concurrency} at a time, so that their audit rows share database transactions; each file
 * moves when its own exchange completes.
 */
@Component
public class FileIntakeRoute extends RouteBuilder {

    /** Read by the consumer's {@code move} option when the exchange completes. */
    public static final String DISPOSITION = "claimguardDisposition";
    public static final String DONE = ".done";
    /** Set by {@code DeadLetterRoute} once a rejected or failed file's dead_letter row is committed. */
    public static final String ERROR = ".error";

    private final int concurrency;

    public FileIntakeRoute(ClaimGuardProperties properties) {
        this.concurrency = properties.file().concurrency();
    }

    @Override
    public void configure() {
        from("{{claimguard.endpoint.file-intake}}")
                .routeId("file-intake")
                .threads(concurrency, concurrency).threadName("file-intake")
                .setProperty(DISPOSITION, constant(DONE))
                .process(FileIntakeRoute::capture)
                .to(Pipeline.VERIFY);
    }

    private static void capture(Exchange exchange) {
        String name = exchange.getIn().getHeader(Exchange.FILE_NAME_ONLY, String.class);
        byte[] payload = exchange.getIn().getBody(byte[].class);
        exchange.setProperty(Pipeline.INPUT,
                new ReceivedInput(ReceivedInput.FILE, name, OffsetDateTime.now(), payload == null ? new byte[0] : payload));
    }
}
