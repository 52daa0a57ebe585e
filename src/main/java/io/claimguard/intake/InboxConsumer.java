package io.claimguard.intake;

import io.claimguard.domain.InboxName;
import io.claimguard.support.FailureStreak;
import io.claimguard.support.LogValue;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.Processor;
import org.apache.camel.spi.Synchronization;
import org.apache.camel.support.EmptyAsyncCallback;
import org.apache.camel.support.ScheduledBatchPollingConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the inbox every poll and hands each file that is due to the route, oldest first, at most
 * {@code maxMessagesPerPoll} at a time; while files keep coming the next poll runs at once (greedy). It only lists and
 * looks at entries (their own attributes, never through a link): it opens nothing, so that no entry can hold the poll
 * up. An entry named {@code *.json} that is not hidden is handed over whatever it is (the route reads a regular file
 * and sets anything else aside unread); a file the route is still working on is not handed over again, nor one waiting
 * out its back-off ({@link FileRetryPolicy}). Any other entry is left alone, and said so once at WARN when it has been
 * there for the settle time (a writer's temporary file is renamed before that); the inbox's own folders are not.
 */
final class InboxConsumer extends ScheduledBatchPollingConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(InboxConsumer.class);
    /** The inbox's own entries: its folders and, with a shared inbox, the leader's lock folder. */
    private static final Set<String> OWN = Set.of(InboxDirectory.DONE, InboxDirectory.ERROR, ".claimguard-leader");

    private final InboxDirectory directory;
    private final FileRetryPolicy retries;
    private final Duration pollDelay;
    private final Duration settleTime;
    private final Clock clock;
    private final Set<Path> inProgress = ConcurrentHashMap.newKeySet();
    private final Map<InboxFile.Key, FileAttempts> attempts = new ConcurrentHashMap<>();
    /** Entries left alone that were said so, while they are there (the poll thread's own). */
    private final Set<Path> saidLeftAlone = new HashSet<>();
    private final FailureStreak listing;

    InboxConsumer(InboxEndpoint endpoint, Processor processor, InboxSettings settings, Clock clock) {
        super(endpoint, processor);
        this.directory = endpoint.directory();
        this.retries = settings.retries();
        this.pollDelay = settings.pollDelay();
        this.settleTime = settings.settleTime();
        this.clock = clock;
        this.listing = new FailureStreak(LOG, "listing the inbox " + directory.path(), "every " + pollDelay.toMillis() + " ms");
        setDelay(pollDelay.toMillis());
        setGreedy(true);
        setMaxMessagesPerPoll(settings.maxFilesPerPoll());
    }

    @Override
    protected void doStart() throws Exception {
        directory.create();
        super.doStart();
    }

    @Override
    protected int poll() throws Exception {
        shutdownRunningTask = null;
        pendingExchanges = 0;
        List<InboxFile> due;
        try {
            due = dueFiles(clock.instant());
            listing.succeeded("listed it again");
        } catch (IOException e) {
            listing.failed(e);
            return 0;
        }
        Queue<Object> exchanges = new ArrayDeque<>(due.size());
        for (InboxFile file : due) {
            Exchange exchange = createExchange(true);
            file.handTo(exchange);
            exchanges.add(exchange);
        }
        return processBatch(exchanges);
    }

    @Override
    public int processBatch(Queue<Object> exchanges) {
        int total = exchanges.size();
        int started = 0;
        for (int index = 0; index < total; index++) {
            Exchange exchange = (Exchange) exchanges.poll();
            InboxFile file = InboxFile.of(exchange);
            if (!isBatchAllowed() || !inProgress.add(file.name())) {
                releaseExchange(exchange, true);
                continue;
            }
            exchange.setProperty(ExchangePropertyKey.BATCH_INDEX, index);
            exchange.setProperty(ExchangePropertyKey.BATCH_SIZE, total);
            exchange.setProperty(ExchangePropertyKey.BATCH_COMPLETE, index == total - 1);
            pendingExchanges = total - index - 1;
            Done done = new Done(file);
            exchange.getExchangeExtension().addOnCompletion(done);
            try {
                getAsyncProcessor().process(exchange, EmptyAsyncCallback.get());
            } catch (RuntimeException e) {
                // not even started: its completion never runs
                exchange.setException(e);
                done.onFailure(exchange);
            }
            started++;
        }
        return started;
    }

    /** The files to hand over now, oldest first; forgets what it remembered of files no longer there. */
    private List<InboxFile> dueFiles(Instant now) throws IOException {
        List<InboxFile> due = new ArrayList<>();
        Set<InboxFile.Key> present = new HashSet<>();
        Set<Path> listed = new HashSet<>();
        try (SecureDirectoryStream<Path> inbox = directory.open()) {
            for (Path entry : inbox) {
                Path name = entry.getFileName();
                String text = name.toString();
                BasicFileAttributes attributes;
                try {
                    attributes = InboxDirectory.attributes(inbox, name);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                listed.add(name);
                InboxName.Kind kind = InboxName.classify(text);
                if (kind != InboxName.Kind.INPUT) {
                    leftAlone(name, text, kind, attributes, now);
                    continue;
                }
                InboxFile.Key key = InboxFile.Key.of(name, attributes);
                present.add(key);
                FileAttempts earlier = attempts.computeIfAbsent(key, k -> new FileAttempts());
                if (!inProgress.contains(name) && earlier.dueBy(now)) {
                    due.add(new InboxFile(name, text, key, earlier));
                }
            }
        }
        attempts.keySet().retainAll(present);
        saidLeftAlone.retainAll(listed);
        due.sort(Comparator.comparing(InboxFile::modified));
        int most = getMaxMessagesPerPoll();
        return most > 0 && due.size() > most ? due.subList(0, most) : due;
    }

    private void leftAlone(Path name, String text, InboxName.Kind kind, BasicFileAttributes attributes, Instant now) {
        if (OWN.contains(text) || saidLeftAlone.contains(name)
                || Duration.between(attributes.lastModifiedTime().toInstant(), now).compareTo(settleTime) < 0) {
            return;
        }
        saidLeftAlone.add(name);
        LOG.warn("inbox entry {} is left alone: {}", LogValue.of(text), kind == InboxName.Kind.HIDDEN
                ? "its name starts with a dot, as a file still being written does; ClaimGuard takes no hidden file"
                : "its name does not end in .json");
    }

    /** What becomes of the file's attempts once its exchange is done. */
    private final class Done implements Synchronization {

        private final InboxFile file;

        Done(InboxFile file) {
            this.file = file;
        }

        @Override
        public void onComplete(Exchange exchange) {
            try {
                InboxFile.Taking taking = InboxFile.taking(exchange);
                if (taking == InboxFile.Taking.NOT_SETTLED) {
                    file.attempts().notBefore(clock.instant().plus(pollDelay));
                } else {
                    // moved into .done/ or .error/, or gone: nothing is left to remember
                    attempts.remove(file.key());
                }
            } finally {
                inProgress.remove(file.name());
            }
        }

        @Override
        public void onFailure(Exchange exchange) {
            try {
                retries.failed(file, exchange.getException(), clock.instant());
            } finally {
                inProgress.remove(file.name());
            }
        }
    }
}
