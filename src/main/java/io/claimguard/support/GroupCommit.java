package io.claimguard.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Group commit: callers on many threads each hand in one item and wait; writer threads take whatever has queued
 * up (at most {@code maxBatchSize}) and write it in one go, then release every caller with its own result. Under
 * load a batch holds every item that arrived while the previous one was being written; with a single caller it is
 * a batch of one, so nothing waits for a batch to fill.
 *
 * <p>A failing batch fails every caller with the same failure when {@code wholeBatchFailure} says the failure
 * is not about the items (the database is unreachable); otherwise it is written again in two halves, each split
 * again while it fails, so that one item the database refuses fails alone and the others succeed: a batch of n
 * with one such item takes about 2 log2(n) writes more, where writing its items one at a time took n.
 *
 * @param <T> what callers hand in
 * @param <R> what each caller gets back
 */
public final class GroupCommit<T, R> implements AutoCloseable {

    /** Writes a batch; returns one result per item, in the items' order. */
    @FunctionalInterface
    public interface BatchWriter<T, R> {
        List<R> write(List<T> items) throws Exception;
    }

    private static final long IDLE_POLL_MILLIS = 100;

    private final BatchWriter<T, R> writer;
    private final int maxBatchSize;
    private final Predicate<Throwable> wholeBatchFailure;
    private final BatchListener listener;
    private final BlockingQueue<Pending<T, R>> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private volatile boolean open = true;

    /** Told what happens to batches, for metrics. */
    public interface BatchListener {
        /** A batch of this many items was written (a re-written single item included). */
        void written(int size);

        /** A batch of this many items failed for one of its items and is written again in two halves. */
        void split(int size);
    }

    public GroupCommit(String name, int writerThreads, int maxBatchSize, BatchWriter<T, R> writer,
            Predicate<Throwable> wholeBatchFailure, BatchListener listener) {
        if (writerThreads < 1 || maxBatchSize < 1) {
            throw new IllegalArgumentException("group commit " + name + " needs at least one writer and a batch size of"
                    + " at least 1, got " + writerThreads + " writers and batch size " + maxBatchSize);
        }
        this.writer = writer;
        this.maxBatchSize = maxBatchSize;
        this.wholeBatchFailure = wholeBatchFailure;
        this.listener = listener;
        for (int i = 1; i <= writerThreads; i++) {
            Thread thread = new Thread(this::writeUntilClosed, name + "-writer-" + i);
            thread.setDaemon(true);
            writers.add(thread);
            thread.start();
        }
    }

    /**
     * Writes the item with the others queued at the same time and returns its result, or throws the failure that
     * concerns it (the exception as the writer threw it).
     */
    public R submit(T item) throws Exception {
        if (!open) {
            throw new IllegalStateException("the audit writer is shut down; the input is left unacknowledged");
        }
        Pending<T, R> pending = new Pending<>(item);
        queue.add(pending);
        try {
            return pending.result.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        }
    }

    /** Items handed in and not yet taken by a writer. */
    public int queued() {
        return queue.size();
    }

    /** Stops taking items; writers finish what is queued, then stop. */
    @Override
    public void close() throws InterruptedException {
        open = false;
        for (Thread thread : writers) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        IllegalStateException shutdown = new IllegalStateException("the audit writer shut down before writing the input");
        for (Pending<T, R> left = queue.poll(); left != null; left = queue.poll()) {
            left.result.completeExceptionally(shutdown);
        }
    }

    private void writeUntilClosed() {
        while (open || !queue.isEmpty()) {
            Pending<T, R> first;
            try {
                first = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (first == null) {
                continue;
            }
            List<Pending<T, R>> batch = new ArrayList<>(Math.min(maxBatchSize, queue.size() + 1));
            batch.add(first);
            queue.drainTo(batch, maxBatchSize - 1);
            write(batch);
        }
    }

    private void write(List<Pending<T, R>> batch) {
        List<R> results;
        try {
            List<T> items = new ArrayList<>(batch.size());
            batch.forEach(pending -> items.add(pending.item));
            results = writer.write(items);
        } catch (Throwable failure) {
            if (batch.size() == 1 || wholeBatchFailure.test(failure)) {
                batch.forEach(pending -> pending.result.completeExceptionally(failure));
            } else {
                // the statement failed for something in it: find out which item, by halving
                listener.split(batch.size());
                int half = batch.size() / 2;
                write(batch.subList(0, half));
                write(batch.subList(half, batch.size()));
            }
            return;
        }
        if (results.size() != batch.size()) {
            IllegalStateException mismatch = new IllegalStateException(
                    "the batch writer returned " + results.size() + " results for " + batch.size() + " items");
            batch.forEach(pending -> pending.result.completeExceptionally(mismatch));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).result.complete(results.get(i));
        }
        listener.written(batch.size());
    }

    private static final class Pending<T, R> {
        final T item;
        final CompletableFuture<R> result = new CompletableFuture<>();

        Pending(T item) {
            this.item = item;
        }
    }
}
