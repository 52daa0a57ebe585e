package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.audit.AuditWriter;
import io.claimguard.broker.BrokerRole;
import io.claimguard.testkit.TestBrokerUsers;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * The batched audit path: inputs are made to queue up behind the audit writers by holding a lock on the audit
 * table, so that the next batch certainly holds several of them; then the lock is released.
 */
class BatchedAuditIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** claimguard.audit.writers, as configured by default. */
    private static final int WRITERS = 2;

    @Autowired
    AuditWriter auditWriter;

    @Autowired
    MeterRegistry registry;

    @Test
    @DisplayName("Scenario: A batch with one poison input audits the others and dead-letters that one")
    void aBatchWithOnePoisonInputAuditsTheOthers() throws Exception {
        refuseRequestIdsWithRefusedPrefix();
        String poisonCase = uniqueId(REFUSED_PREFIX + "batch-poison");
        String poison = passingV1(poisonCase);
        List<String> good = new ArrayList<>();
        double splitsBefore = splits();

        try (Connection lock = lockAuditTable()) {
            occupyTheWriters(good);
            // the poison first, so that the writer that takes it also takes the inputs behind it
            Map<String, String> inputs = new LinkedHashMap<>();
            inputs.put(poisonCase, poison);
            for (int i = 0; i < 6; i++) {
                String requestId = uniqueId("batch-good");
                good.add(requestId);
                inputs.put(requestId, passingV1(requestId));
            }
            sendTogether(inputs);
            await().atMost(PATIENCE).until(() -> auditWriter.queued() == 7);
            lock.commit();
        }

        for (String requestId : good) {
            Message result = receiveResult(requestId);
            assertThat(result).as("result of " + requestId).isNotNull();
            assertThat(JSON.readTree(text(result)).get("audit_id").asLong())
                    .isEqualTo(((Number) awaitAuditRow(requestId).get("id")).longValue());
        }
        DeadLetterMessage dead = receiveDeadLetter(poisonCase);
        assertThat(dead).isNotNull();
        assertThat(dead.reason()).startsWith("processing_failed: processing failed after 1 attempt: ");
        assertThat(auditRows(poisonCase)).isEmpty();
        assertThat(splits()).isGreaterThan(splitsBefore);
    }

    @Test
    @DisplayName("Scenario: Identical inputs in one batch make one row, and every copy is forwarded with its audit_id")
    void identicalInputsInOneBatchMakeOneRow() throws Exception {
        String requestId = uniqueId("batch-twins");
        String envelope = gatekeeperFailedV2(requestId);
        List<String> others = new ArrayList<>();

        try (Connection lock = lockAuditTable()) {
            occupyTheWriters(others);
            sendTogether(Map.of(requestId + "-0", envelope, requestId + "-1", envelope, requestId + "-2", envelope));
            await().atMost(PATIENCE).until(() -> auditWriter.queued() == 3);
            lock.commit();
        }

        Set<Long> auditIds = new HashSet<>();
        for (int copy = 0; copy < 3; copy++) {
            Message result = receiveResult(requestId);
            assertThat(result).as("result of copy " + copy).isNotNull();
            auditIds.add(JSON.readTree(text(result)).get("audit_id").asLong());
        }
        List<Map<String, Object>> rows = auditRows(requestId);
        assertThat(rows).hasSize(1);
        assertThat(auditIds).containsExactly(((Number) rows.get(0).get("id")).longValue());
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.claim_check WHERE audit_id = ?", Long.class,
                rows.get(0).get("id"))).isEqualTo(2);
        others.forEach(ServiceTestSupport::awaitAuditRow);
    }

    @Test
    @DisplayName("Scenario: Inputs processed at the same time share one audit transaction and keep their own audit_id")
    void concurrentInputsShareOneStatement() throws Exception {
        List<String> blockers = new ArrayList<>();
        List<String> queued = new ArrayList<>();
        long batchesBefore = batchCount();

        try (Connection lock = lockAuditTable()) {
            occupyTheWriters(blockers);
            Map<String, String> inputs = new LinkedHashMap<>();
            for (int i = 0; i < 5; i++) {
                String requestId = uniqueId("batch-shared");
                queued.add(requestId);
                inputs.put(requestId, gatekeeperFailedV2(requestId));
            }
            sendTogether(inputs);
            await().atMost(PATIENCE).until(() -> auditWriter.queued() == 5);
            lock.commit();
        }

        Set<Long> auditIds = new HashSet<>();
        for (String requestId : queued) {
            Message result = receiveResult(requestId);
            assertThat(result).isNotNull();
            auditIds.add(JSON.readTree(text(result)).get("audit_id").asLong());
            assertThat(auditRows(requestId)).hasSize(1);
        }
        blockers.forEach(ServiceTestSupport::awaitAuditRow);
        assertThat(auditIds).hasSize(5);
        // the blockers' batches, then the five queued inputs in at most two (one per writer)
        assertThat(batchCount() - batchesBefore).isBetween(3L, 4L);
        assertThat(registry.get("claimguard.audit.batch.size").summary().max()).isGreaterThanOrEqualTo(2);
    }

    /** A transaction holding a lock that blocks inserts into the audit table (not reads), until it ends. */
    private static Connection lockAuditTable() throws SQLException {
        Connection connection = DATABASE.connect();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LOCK TABLE claimguard.verification_audit IN SHARE ROW EXCLUSIVE MODE");
        }
        return connection;
    }

    /**
     * Drops one file per audit writer and waits until every writer is stuck on the lock with it: one at a time, so
     * that each is written by a writer of its own. Files, so that no JMS session is held up by a blocker (a session
     * whose batch waits keeps the message it has already taken ahead).
     */
    private void occupyTheWriters(List<String> requestIds) {
        for (int i = 1; i <= WRITERS; i++) {
            String requestId = uniqueId("batch-blocker");
            requestIds.add(requestId);
            dropFile(requestId + ".json", utf8(passingV1(requestId)));
            long stuck = i;
            await().atMost(PATIENCE).until(() -> SQL.queryForObject("""
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                      -- the batch's audit row insert (its keys are in already): pg_stat_activity keeps only the
                      -- statement's first kilobyte
                      AND query LIKE 'INSERT INTO claimguard.verification_audit %'""", Long.class) == stuck);
        }
    }

    /**
     * Sends the texts (by test case) in one JMS transaction, so that they reach the intake together: messages sent
     * one by one can each be taken ahead by a session whose batch then waits on the locked table with it.
     */
    private void sendTogether(Map<String, String> textByTestCase) throws JMSException {
        try (jakarta.jms.Connection connection = TestBrokerUsers.connectionFactory(brokerUrl(), BrokerRole.PRODUCER)
                .createConnection();
                Session session = connection.createSession(true, Session.SESSION_TRANSACTED)) {
            MessageProducer producer = session.createProducer(session.createQueue(INPUT_QUEUE));
            for (Map.Entry<String, String> input : textByTestCase.entrySet()) {
                TextMessage message = session.createTextMessage(input.getValue());
                message.setStringProperty("testCase", input.getKey());
                producer.send(message);
            }
            session.commit();
        }
    }

    private double splits() {
        return registry.get("claimguard.audit.batch.splits").counter().count();
    }

    private long batchCount() {
        return registry.get("claimguard.audit.batch.size").summary().count();
    }
}
