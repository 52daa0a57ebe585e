package io.claimguard.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.SQLDataException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GroupCommitTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<List<String>> batchesWritten = new CopyOnWriteArrayList<>();
    private final AtomicInteger splits = new AtomicInteger();
    /** Holds the writer inside its first batch until released, so that the next callers queue up behind it. */
    private final CountDownLatch firstBatchMayFinish = new CountDownLatch(1);
    private GroupCommit<String, String> groupCommit;

    @AfterEach
    void tearDown() throws InterruptedException {
        firstBatchMayFinish.countDown();
        if (groupCommit != null) {
            groupCommit.close();
        }
        callers.shutdownNow();
    }

    @Test
    @DisplayName("Scenario: An input that arrives alone is written at once, in a batch of its own")
    void aLoneInputIsWrittenAlone() throws Exception {
        groupCommit = start(1, 64, items -> items.stream().map(String::toUpperCase).toList());
        firstBatchMayFinish.countDown();

        assertThat(groupCommit.submit("alone")).isEqualTo("ALONE");
        assertThat(batchesWritten).containsExactly(List.of("alone"));
    }

    @Test
    @DisplayName("Scenario: Inputs that arrive while a batch is being written are written together, each getting its own result")
    void inputsQueuedBehindABatchAreWrittenTogether() throws Exception {
        groupCommit = start(1, 64, items -> items.stream().map(String::toUpperCase).toList());
        Future<String> first = callers.submit(() -> groupCommit.submit("first"));
        await().atMost(PATIENCE).until(() -> batchesWritten.size() == 1);

        List<Future<String>> queued = submitAll("a", "b", "c", "d", "e");
        await().atMost(PATIENCE).until(() -> groupCommit.queued() == 5);
        firstBatchMayFinish.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("FIRST");
        assertThat(results(queued)).containsExactly("A", "B", "C", "D", "E");
        assertThat(batchesWritten).hasSize(2);
        assertThat(batchesWritten.get(1)).containsExactlyInAnyOrder("a", "b", "c", "d", "e");
    }

    @Test
    @DisplayName("Scenario: A batch never holds more than the configured number of inputs")
    void batchesAreCappedAtTheMaximumSize() throws Exception {
        groupCommit = start(1, 2, items -> items);
        Future<String> first = callers.submit(() -> groupCommit.submit("first"));
        await().atMost(PATIENCE).until(() -> batchesWritten.size() == 1);
        List<Future<String>> queued = submitAll("a", "b", "c", "d", "e");
        await().atMost(PATIENCE).until(() -> groupCommit.queued() == 5);
        firstBatchMayFinish.countDown();

        first.get(10, TimeUnit.SECONDS);
        assertThat(results(queued)).containsExactly("a", "b", "c", "d", "e");
        assertThat(batchesWritten).allSatisfy(batch -> assertThat(batch).hasSizeLessThanOrEqualTo(2));
        assertThat(batchesWritten.stream().mapToInt(List::size).sum()).isEqualTo(6);
    }

    @Test
    @DisplayName("Scenario: A batch that fails for one of its inputs is written again in halves, and only that input fails")
    void aFailingBatchIsSplitSoThatOnlyThePoisonFails() throws Exception {
        groupCommit = start(1, 64, items -> {
            if (items.contains("poison")) {
                throw new SQLDataException("invalid byte sequence", "22021");
            }
            return items.stream().map(String::toUpperCase).toList();
        });
        Future<String> first = callers.submit(() -> groupCommit.submit("first"));
        await().atMost(PATIENCE).until(() -> batchesWritten.size() == 1);
        List<Future<String>> queued = submitAll("a", "poison", "b");
        await().atMost(PATIENCE).until(() -> groupCommit.queued() == 3);
        firstBatchMayFinish.countDown();

        first.get(10, TimeUnit.SECONDS);
        assertThat(queued.get(0).get(10, TimeUnit.SECONDS)).isEqualTo("A");
        assertThat(queued.get(2).get(10, TimeUnit.SECONDS)).isEqualTo("B");
        assertThatThrownBy(() -> queued.get(1).get(10, TimeUnit.SECONDS))
                .cause().isInstanceOf(SQLDataException.class).hasMessage("invalid byte sequence");
        // the batch of three, its halves, then the failing half's halves
        assertThat(batchesWritten.subList(1, batchesWritten.size()))
                .containsExactly(batchOf3(), List.of("a"), List.of("poison", "b"), List.of("poison"), List.of("b"));
        assertThat(splits).hasValue(2);
    }

    @Test
    @DisplayName("Scenario: One refused input in a large batch costs a few more writes, not one per input")
    void oneRefusedInputInALargeBatchIsFoundByHalving() throws Exception {
        groupCommit = start(1, 64, items -> {
            if (items.contains("poison")) {
                throw new SQLDataException("invalid byte sequence", "22021");
            }
            return items.stream().map(String::toUpperCase).toList();
        });
        Future<String> first = callers.submit(() -> groupCommit.submit("first"));
        await().atMost(PATIENCE).until(() -> batchesWritten.size() == 1);
        String[] items = new String[64];
        for (int i = 0; i < items.length; i++) {
            items[i] = i == 37 ? "poison" : "item-" + i;
        }
        List<Future<String>> queued = new ArrayList<>();
        // one at a time, so that they queue in this order
        for (String item : items) {
            queued.add(callers.submit(() -> groupCommit.submit(item)));
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(2)).until(() -> groupCommit.queued() == queued.size());
        }
        firstBatchMayFinish.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (int i = 0; i < items.length; i++) {
            Future<String> result = queued.get(i);
            if (i == 37) {
                assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(SQLDataException.class);
            } else {
                assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(items[i].toUpperCase());
            }
        }
        List<List<String>> rewrites = batchesWritten.subList(2, batchesWritten.size());
        // 64 failed; halves of 32, 16, 8, 4, 2, 1 around item 37: twelve writes, where one at a time took 64
        assertThat(batchesWritten.get(1)).hasSize(64);
        assertThat(rewrites).hasSize(12);
        assertThat(rewrites.stream().filter(batch -> batch.size() == 1).count()).isEqualTo(2);
        assertThat(splits).hasValue(6);
    }

    @Test
    @DisplayName("Scenario: A batch that fails because the database is unreachable fails every input in it, without splitting")
    void anOutageFailsTheWholeBatch() throws Exception {
        groupCommit = start(1, 64, items -> {
            if (items.size() > 1) {
                throw new SQLTransientConnectionException("connection refused", "08001");
            }
            return items;
        });
        Future<String> first = callers.submit(() -> groupCommit.submit("first"));
        await().atMost(PATIENCE).until(() -> batchesWritten.size() == 1);
        List<Future<String>> queued = submitAll("a", "b");
        await().atMost(PATIENCE).until(() -> groupCommit.queued() == 2);
        firstBatchMayFinish.countDown();

        first.get(10, TimeUnit.SECONDS);
        for (Future<String> each : queued) {
            assertThatThrownBy(() -> each.get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(SQLTransientConnectionException.class);
        }
        assertThat(splits).hasValue(0);
        assertThat(batchesWritten).hasSize(2);
    }

    @Test
    @DisplayName("Scenario: On shutdown the writer finishes the queued inputs and refuses new ones")
    void closeFinishesQueuedInputsAndRefusesNewOnes() throws Exception {
        groupCommit = start(1, 64, items -> items);
        Future<String> first = callers.submit(() -> groupCommit.submit("first"));
        await().atMost(PATIENCE).until(() -> batchesWritten.size() == 1);
        List<Future<String>> queued = submitAll("a");
        await().atMost(PATIENCE).until(() -> groupCommit.queued() == 1);

        Future<?> closing = callers.submit(() -> {
            groupCommit.close();
            return null;
        });
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThatThrownBy(() -> groupCommit.submit("late")).isInstanceOf(IllegalStateException.class));
        firstBatchMayFinish.countDown();
        closing.get(10, TimeUnit.SECONDS);

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(results(queued)).containsExactly("a");
    }

    private static List<String> batchOf3() {
        return List.of("a", "poison", "b");
    }

    /** A group commit whose writer records each batch and holds the first one until the test releases it. */
    private GroupCommit<String, String> start(int writers, int maxBatchSize, GroupCommit.BatchWriter<String, String> writer) {
        return new GroupCommit<>("test", writers, maxBatchSize, items -> {
            batchesWritten.add(List.copyOf(items));
            if (batchesWritten.size() == 1) {
                firstBatchMayFinish.await();
            }
            return writer.write(items);
        }, failure -> failure instanceof SQLTransientConnectionException, new GroupCommit.BatchListener() {
            @Override
            public void written(int size) {
            }

            @Override
            public void split(int size) {
                splits.incrementAndGet();
            }
        });
    }

    /** Submits each item from its own thread, one after the other in that order. */
    private List<Future<String>> submitAll(String... items) {
        List<Future<String>> futures = new ArrayList<>();
        for (String item : items) {
            int before = groupCommit.queued();
            futures.add(callers.submit(() -> groupCommit.submit(item)));
            await().atMost(PATIENCE).until(() -> groupCommit.queued() == before + 1);
        }
        return futures;
    }

    private static List<String> results(List<Future<String>> futures) throws Exception {
        List<String> results = new ArrayList<>();
        for (Future<String> future : futures) {
            results.add(future.get(10, TimeUnit.SECONDS));
        }
        return results;
    }
}
