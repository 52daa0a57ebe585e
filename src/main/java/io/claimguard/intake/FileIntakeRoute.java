package io.claimguard.intake;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.InboxName;
import io.claimguard.domain.OutboxName;
import io.claimguard.domain.RejectionReason;
import io.claimguard.domain.StoredPayload;
import io.claimguard.observe.PipelineObserver;
import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Pipeline;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.pipeline.SignedResult;
import io.claimguard.support.Backoff;
import io.claimguard.support.LogValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.apache.camel.Exchange;
import org.apache.camel.builder.PredicateBuilder;
import org.apache.camel.builder.endpoint.EndpointRouteBuilder;
import org.apache.camel.component.file.cluster.FileLockClusterService;
import org.apache.camel.impl.cluster.ClusteredRoutePolicy;
import org.apache.camel.spi.RoutePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The file drop. Each {@code *.json} entry of the inbox that is not hidden is taken ({@link InboxConsumer}) and looked
 * at as it is now, through the {@link InboxDirectory}, never through a link: a regular file is read (once it is
 * settled, {@link SettledFile}; a file larger than a dead letter keeps is never held whole, {@link StoredPayload#read})
 * and is one input; anything else (a symbolic link, a FIFO, a socket, a device, a directory) is rejected as
 * {@code file_type.unsupported} without being opened. A file that failed {@code max-delivery-attempts} times is not
 * processed again but set aside as {@code processing_failed} ({@link FileRetryPolicy}). Once its audit rows are
 * committed and its result forwarded (once per audit row: a retried file does not send it again), the result is also
 * written to the outbox ({@link OutboxName}), its signature beside it first (once too), and the file moves to
 * {@code .done/}; once a set-aside file's dead_letter row is committed, it moves to {@code .error/} with its reason
 * beside it; a name already taken there gets a number, a name that cannot be kept a built one ({@link InboxName}). A
 * failure leaves the file in the inbox, taken again after its back-off. Files are processed
 * {@code claimguard.file.concurrency} at a time, so that their audit rows share database transactions. With a shared
 * inbox the route runs only on the instance that leads ({@link InboxLeaderElection}).
 */
@Component
public class FileIntakeRoute extends EndpointRouteBuilder {

    public static final String DONE = InboxDirectory.DONE;
    public static final String ERROR = InboxDirectory.ERROR;

    private static final Logger LOG = LoggerFactory.getLogger(FileIntakeRoute.class);
    /** The most files one poll hands to the route. */
    private static final int MAX_FILES_PER_POLL = 500;
    /** The outbox file's name: {@code <request_id>.<audit_id>.json}. */
    private static final String RESULT_NAME = "claimguardResultName";

    private final int concurrency;
    private final int maxStoredBytes;
    private final InboxDirectory directory;
    private final InboxSettings settings;
    private final SettledFile settled;
    private final PipelineObserver observer;
    private final FileLockClusterService inboxLeader;

    /** @param inboxLeader the leader election among instances that share the inbox; none for an inbox of its own */
    public FileIntakeRoute(ClaimGuardProperties properties, PipelineObserver observer,
            ObjectProvider<FileLockClusterService> inboxLeader) {
        ClaimGuardProperties.FileDrop file = properties.file();
        this.concurrency = file.concurrency();
        this.maxStoredBytes = properties.deadLetter().cap();
        this.directory = new InboxDirectory(file.inbox());
        this.settings = new InboxSettings(file.pollDelay(), file.settleTime(), MAX_FILES_PER_POLL,
                new FileRetryPolicy(file.maxDeliveryAttempts(), new Backoff(file.redeliveryDelay(), file.maxRedeliveryDelay())));
        this.settled = new SettledFile(file.settleTime(), properties.limits().maxBytes());
        this.observer = observer;
        this.inboxLeader = inboxLeader.getIfAvailable();
    }

    @Override
    public void configure() throws Exception {
        // a failure goes back to the inbox consumer, whose retry policy makes the file wait
        errorHandler(noErrorHandler());
        if (!InboxDirectory.FILE_NAMES.equals(StandardCharsets.UTF_8)) {
            LOG.warn("this JVM reads file names as {} (sun.jnu.encoding, from the locale): inbox files whose names are not"
                    + " valid {} are recorded with U+FFFD and stored under built names; run it with a UTF-8 locale"
                    + " (LANG=C.UTF-8)", InboxDirectory.FILE_NAMES, InboxDirectory.FILE_NAMES);
        }

        from(new InboxEndpoint(getContext(), directory, settings))
                .routeId("file-intake")
                .routePolicy(whileThisInstanceLeads())
                .threads(concurrency, concurrency).threadName("file-intake")
                // the entry as it is now: a regular file read once settled, anything else set aside unread
                .process(this::take)
                .filter(InboxFile.TAKEN)
                    .to(Pipeline.VERIFY)
                    .process(FileIntakeRoute::forwarded)
                    .filter(PredicateBuilder.and(InputExchange.FORWARDED, PredicateBuilder.not(InboxFile.IN_OUTBOX)))
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
                        .process(FileIntakeRoute::inOutbox)
                    .end()
                    // forwarded: to .done/; set aside, its dead_letter row committed: to .error/ with its reason
                    .process(this::moveOut)
                    .process(observer::completed)
                .end();
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
     * The entry as the input. A regular file is read without following a link, whole unless it is larger than a dead
     * letter keeps (then held only in part), and taken once it is settled; one that failed as often as it may is taken to
     * be set aside, its reason the last failure. Anything else is rejected unread; an entry gone meanwhile is skipped.
     */
    private void take(Exchange exchange) throws IOException {
        InboxFile file = InboxFile.of(exchange);
        // to the microsecond, as dead_letter keeps it: the reason file beside a set-aside file names the same time
        OffsetDateTime receivedAt = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        boolean exhausted = settings.retries().exhausted(file.attempts());
        try (SecureDirectoryStream<Path> inbox = directory.open()) {
            BasicFileAttributes attributes;
            try {
                attributes = InboxDirectory.attributes(inbox, file.name());
            } catch (NoSuchFileException gone) {
                InboxFile.taking(exchange, InboxFile.Taking.GONE);
                return;
            }
            if (!attributes.isRegularFile()) {
                InboxFile.taking(exchange, InboxFile.Taking.TAKEN);
                InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.FILE, file.text(), receivedAt,
                        new byte[0], null, null));
                DeadLetter rejection = new DeadLetter(RejectionReason.FILE_TYPE_UNSUPPORTED, InboxDirectory.describe(attributes));
                LOG.warn("rejected file input {} (not read): {}", LogValue.of(file.text()), LogValue.text(rejection.describe()));
                InputExchange.reject(exchange, rejection);
                return;
            }
            FileBytes read;
            try {
                read = read(inbox, file.name());
            } catch (NoSuchFileException gone) {
                InboxFile.taking(exchange, InboxFile.Taking.GONE);
                return;
            } catch (IOException unreadable) {
                if (!exhausted) {
                    throw unreadable;
                }
                // set aside all the same: its dead letter says why it failed, and keeps no bytes
                read = new FileBytes(new byte[0], null);
            }
            Instant now = receivedAt.toInstant();
            if (!exhausted && !settled.settled(read.size(), attributes.lastModifiedTime().toInstant(), now, read.bytes())) {
                InboxFile.taking(exchange, InboxFile.Taking.NOT_SETTLED);
                return;
            }
            InboxFile.taking(exchange, InboxFile.Taking.TAKEN);
            InputExchange.receive(exchange, new ReceivedInput(ReceivedInput.Source.FILE, file.text(), receivedAt,
                    read.bytes(), null, null, read.partial()));
            if (exhausted) {
                InputExchange.fail(exchange, new DeadLetter(RejectionReason.PROCESSING_FAILED,
                        settings.retries().reason(file.attempts())));
            } else if (file.attempts().forwarded() != null) {
                InputExchange.forwardedBefore(exchange, file.attempts().forwarded());
            }
        }
    }

    /**
     * A regular file's bytes, read once to its end: all of them, or, for one larger than a dead letter keeps (which can
     * only be rejected as too large), its first bytes with its size and SHA-256 ({@link StoredPayload#read}).
     */
    private FileBytes read(SecureDirectoryStream<Path> inbox, Path name) throws IOException {
        try (SeekableByteChannel channel = InboxDirectory.read(inbox, name);
                InputStream in = Channels.newInputStream(channel)) {
            if (channel.size() > maxStoredBytes) {
                StoredPayload read = StoredPayload.read(in, maxStoredBytes);
                // a file that shrank meanwhile is held whole after all
                return new FileBytes(read.bytes(), read.truncated() ? read : null);
            }
            return new FileBytes(in.readAllBytes(), null);
        }
    }

    /** What was read of a file: all its bytes, or its first ones when {@code partial} says so. */
    private record FileBytes(byte[] bytes, StoredPayload partial) {

        long size() {
            return partial == null ? bytes.length : partial.size();
        }
    }

    /** The result is on the output queue: a retry of this file does not send it again. */
    private static void forwarded(Exchange exchange) {
        if (InputExchange.FORWARDED.matches(exchange)) {
            InboxFile.of(exchange).attempts().forwarded(InputExchange.auditId(exchange));
        }
    }

    /** The result is in the outbox: a retry of this file does not write it again. */
    private static void inOutbox(Exchange exchange) {
        InboxFile.of(exchange).attempts().inOutbox(InputExchange.auditId(exchange));
    }

    /** Forwarded: into {@code .done/}; set aside: into {@code .error/}, its reason beside it. */
    private void moveOut(Exchange exchange) throws IOException {
        InboxFile file = InboxFile.of(exchange);
        if (InputExchange.FORWARDED.matches(exchange)) {
            directory.moveUnderFreeName(file.name(), file.text(), DONE, null);
        } else if (InputExchange.SET_ASIDE.matches(exchange)) {
            directory.moveUnderFreeName(file.name(), file.text(), ERROR, reasonText(exchange));
        } else {
            throw new IllegalStateException("exchange completed without an outcome, so the file stays: " + file.text());
        }
    }

    /**
     * The reason as dead_letter holds it ({@code <reason_code>: <reason>}, a failure's reason may span lines), then the
     * row's {@code source_ref} (on one line, {@link InboxName#oneLine}) and {@code received_at} (in UTC), which find the
     * row.
     */
    static String reasonText(Exchange exchange) {
        DeadLetter deadLetter = InputExchange.deadLetter(exchange);
        ReceivedInput input = InputExchange.input(exchange);
        return deadLetter.describe() + "\n"
                + "source_ref: " + InboxName.oneLine(input.sourceRef()) + "\n"
                + "received_at: " + input.receivedAt().withOffsetSameInstant(ZoneOffset.UTC) + "\n";
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
                OutboxName.of(InputExchange.verification(exchange).requestId(), InputExchange.auditId(exchange)));
    }
}
