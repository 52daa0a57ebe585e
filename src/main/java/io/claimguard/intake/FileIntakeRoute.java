package io.claimguard.intake;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.StoredPayload;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.SignedResult;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import org.apache.camel.Exchange;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.component.file.cluster.FileLockClusterService;
import org.apache.camel.impl.cluster.ClusteredRoutePolicy;
import org.apache.camel.spi.RoutePolicy;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The file drop: every settled {@code *.json} file in the inbox is one input ({@link SettledFileFilter}). Once its audit rows are committed
 * and its result forwarded, the result is also written to the outbox, its signature beside it first, and the file
 * moves to {@code .done/}; once a rejected or failed file's dead_letter row is committed, it moves to {@code .error/} with its reason beside it; a
 * name already taken there gets a number ({@link InboxFileDisposal}). A file larger than a dead letter keeps is never
 * read into memory whole ({@link #capture}). On any other failure it stays
 * in the inbox and is tried again at the next poll. Files are processed {@code claimguard.file.concurrency} at a
 * time, so that their audit rows share database transactions; each file moves when its own exchange completes. With
 * a shared inbox the route runs only on the instance that leads ({@link InboxLeaderElection}).
 */
@Component
public class FileIntakeRoute extends EndpointRouteBuilder {

    public static final String DONE = ".done";
    public static final String ERROR = ".error";

    /** The outbox file's name: {@code <request_id>.<audit_id>.json}. */
    private static final String RESULT_NAME = "claimguardResultName";

    private final int concurrency;
    private final int maxStoredBytes;
    private final SettledFileFilter settled;
    private final PipelineObserver observer;
    private final FileLockClusterService inboxLeader;

    /** @param inboxLeader the leader election among instances that share the inbox; none for an inbox of its own */
    public FileIntakeRoute(ClaimGuardProperties properties, PipelineObserver observer,
            ObjectProvider<FileLockClusterService> inboxLeader) {
        this.concurrency = properties.file().concurrency();
        this.maxStoredBytes = properties.deadLetter().cap();
        this.settled = new SettledFileFilter(properties.file().settleTime(), properties.limits().maxBytes(),
                Clock.systemUTC());
        this.observer = observer;
        this.inboxLeader = inboxLeader.getIfAvailable();
    }

    @Override
    public void configure() throws Exception {
        from(file("{{claimguard.file.inbox}}")
                        // settled files only: complete at once (a writer renames name.tmp to name.json), anything
                        // else once unchanged for the settle time; an empty file is an input, rejected like any
                        // other bad input
                        .antInclude("*.json")
                        .filter(settled)
                        .readLock("none")
                        .delay("{{claimguard.file.poll-delay}}")
                        // while files keep coming the next poll runs at once, not after the poll delay
                        .greedy(true)
                        .maxMessagesPerPoll(500)
                        .sortBy("file:modified")
                        // moves the file when its exchange completes, by its outcome, never over another file
                        .advanced().processStrategy(new InboxFileDisposal()))
                .routeId("file-intake")
                .routePolicy(whileThisInstanceLeads())
                .threads(concurrency, concurrency).threadName("file-intake")
                .process(this::capture)
                .to(Pipeline.VERIFY)
                .choice()
                    .when(InputExchange.FORWARDED)
                        .process(FileIntakeRoute::nameResult)
                        // the signature first, so that whoever sees the result file finds its signature beside it
                        .process(FileIntakeRoute::signatureAsBody)
                        .to(file("{{claimguard.file.outbox}}")
                                .fileName("${exchangeProperty." + RESULT_NAME + "}" + SignedResult.SIDECAR_SUFFIX)
                                .tempFileName(".${exchangeProperty." + RESULT_NAME + "}" + SignedResult.SIDECAR_SUFFIX + ".tmp")
                                .fileExist("Override"))
                        .process(FileIntakeRoute::resultAsBody)
                        .to(file("{{claimguard.file.outbox}}")
                                .fileName("${exchangeProperty." + RESULT_NAME + "}")
                                .tempFileName(".${exchangeProperty." + RESULT_NAME + "}.tmp")
                                .fileExist("Override"))
                .end()
                .process(observer::completed);
    }

    /** With a shared inbox, the route runs only while this instance is the leader; otherwise it always runs. */
    private RoutePolicy[] whileThisInstanceLeads() throws Exception {
        if (inboxLeader == null) {
            return new RoutePolicy[0];
        }
        getContext().addService(inboxLeader, true, true);
        return new RoutePolicy[] {ClusteredRoutePolicy.forNamespace(inboxLeader, InboxLeaderElection.NAMESPACE)};
    }

    /**
     * The file as the input: read whole, unless it is larger than a dead letter keeps, and so too large to be anything
     * but rejected: then it is read once to its end, holding only the bytes its dead letter keeps, and counted and
     * hashed ({@link StoredPayload#read}), so that a file of any size costs at most the cap in memory.
     */
    private void capture(Exchange exchange) throws IOException {
        String name = exchange.getIn().getHeader(Exchange.FILE_NAME_ONLY, String.class);
        // to the microsecond, as dead_letter keeps it: the reason file beside a set-aside file names the same time
        OffsetDateTime receivedAt = OffsetDateTime.now().truncatedTo(ChronoUnit.MICROS);
        GenericFile<?> file = exchange.getIn().getBody(GenericFile.class);
        if (file != null && file.getFileLength() > maxStoredBytes && file.getFile() instanceof File local) {
            StoredPayload read;
            try (InputStream in = Files.newInputStream(local.toPath())) {
                read = StoredPayload.read(in, maxStoredBytes);
            }
            // a file that shrank meanwhile is held whole after all
            InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.FILE, name, receivedAt, read.bytes(),
                    null, null, read.truncated() ? read : null));
            return;
        }
        byte[] payload = exchange.getIn().getBody(byte[].class);
        InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.FILE, name, receivedAt,
                payload == null ? new byte[0] : payload, null, null));
    }

    /** The sidecar file's content: the result's key id and signature. */
    private static void signatureAsBody(Exchange exchange) {
        exchange.getIn().setBody(InputExchange.signedResult(exchange).sidecar().getBytes(StandardCharsets.US_ASCII));
    }

    /** The outbox file's content: exactly the bytes the signature covers. */
    private static void resultAsBody(Exchange exchange) {
        exchange.getIn().setBody(InputExchange.signedResult(exchange).bytes());
    }

    private static void nameResult(Exchange exchange) {
        exchange.setProperty(RESULT_NAME,
                InputExchange.verification(exchange).requestId() + "." + InputExchange.auditId(exchange) + ".json");
    }
}
