package io.claimguard.harness.bench;

import static org.awaitility.Awaitility.await;

import io.claimguard.audit.AuditRecord;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.testkit.JmsClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.activemq.artemis.api.core.ActiveMQBuffer;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientConsumer;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientProducer;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.reader.TextMessageUtil;
import org.apache.activemq.artemis.utils.UUIDGenerator;

/**
 * The second ceiling: all of ClaimGuard's work for a JMS input, done by the leanest loop we can write with the same
 * components and no framework. An embedded Artemis broker (persistent journal, in-VM) in the harness JVM; one core
 * session that receives {@value #BATCH} messages in one transaction; for each the service's domain code (read,
 * project, guard, {@link AuditRecord#of}); the identical audit and claim_check rows by plain JDBC batches
 * ({@link JdbcCeiling}'s statements, one transaction); the effective results sent in the session; the database
 * commit, then the JMS commit. No duplicate check, no retries, no metrics, no log line, one thread: what the service
 * adds to this is what its guarantees and its operability cost.
 */
final class PipelineCeiling {

    static final int BATCH = 250;

    private static final String INPUT_QUEUE = "pipeline-ceiling.in";
    private static final String OUTPUT_QUEUE = "pipeline-ceiling.out";

    /** What the loop did; {@code forwarded} counts distinct audit ids on the output queue. */
    record Result(int envelopes, double seconds, ProcessProbe.CpuUse cpu, long forwarded, List<String> problems) {

        double envelopesPerSecond() {
            return envelopes / seconds;
        }
    }

    private PipelineCeiling() {
    }

    static Result run(BenchEnvelopes workload, int count, BenchDatabase database, Path work, Duration drainTimeout,
            Bench.Log log) throws Exception {
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ()
                .setConfiguration(CamelBaseline.brokerConfiguration(work.resolve("pipeline-ceiling-artemis")));
        broker.start();
        try (Connection sql = DriverManager.getConnection(database.jdbcUrl() + "?reWriteBatchedInserts=true",
                        database.database().username(), database.database().password());
                ServerLocator locator = ActiveMQClient.createServerLocator("vm://0");
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession(false, false, false)) {
            JmsClient jms = new JmsClient("vm://0");
            // the same envelopes, in the same order, as the service's JMS backlog
            Bench.queueJms(jms, INPUT_QUEUE, workload, Bench.JMS_STREAM, count, envelope -> { });
            log.line("pipeline ceiling: %,d messages queued on the embedded broker; starting the loop", count);
            sql.setAutoCommit(false);
            ClientConsumer consumer = session.createConsumer(INPUT_QUEUE);
            ClientProducer producer = session.createProducer(OUTPUT_QUEUE);
            session.start();
            EnvelopeReader reader = new EnvelopeReader(new Limits(1_048_576, 64));

            ProcessProbe.CpuWindow window = ProcessProbe.CpuWindow.start(ProcessHandle.current().pid());
            long started = System.nanoTime();
            long deadline = started + drainTimeout.toNanos();
            int done = 0;
            while (done < count && System.nanoTime() < deadline) {
                List<ClientMessage> batch = receive(consumer);
                if (batch.isEmpty()) {
                    continue;
                }
                List<Verification> verifications = new ArrayList<>(batch.size());
                List<JdbcCeiling.Row> rows = new ArrayList<>(batch.size());
                for (ClientMessage message : batch) {
                    byte[] payload = payload(message);
                    Verification verification = Verification.of(reader.read(payload));
                    AuditRecord record = AuditRecord.of(new ReceivedInput(ReceivedInput.Source.JMS,
                            "ID:" + message.getUserID(), OffsetDateTime.now(), payload, null, null), verification);
                    verifications.add(verification);
                    rows.add(JdbcCeiling.row(record, verification));
                    message.acknowledge();
                }
                long[] ids = JdbcCeiling.insert(sql, rows);
                sql.commit();
                for (int i = 0; i < batch.size(); i++) {
                    ClientMessage result = session.createMessage(Message.TEXT_TYPE, true);
                    result.setUserID(UUIDGenerator.getInstance().generateUUID());
                    // anycast, as a JMS queue producer sends: the output queue is created on first use
                    result.setRoutingType(RoutingType.ANYCAST);
                    TextMessageUtil.writeBodyText(result.getBodyBuffer(),
                            SimpleString.of(EffectiveResult.toJson(verifications.get(i), ids[i])));
                    producer.send(result);
                }
                session.commit();
                done += batch.size();
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            ProcessProbe.CpuUse cpu = window.end(elapsed);
            session.stop();
            await("pipeline ceiling rows").atMost(Duration.ofSeconds(10))
                    .until(() -> BenchDatabase.auditAndDeadLetters(sql)[0] >= count);
            List<JmsClient.Received> out = jms.drain(OUTPUT_QUEUE, Duration.ofSeconds(3), count * 2, Duration.ofMinutes(10));
            Set<Long> auditIds = new HashSet<>();
            out.forEach(message -> auditIds.add(Bench.auditIdOf(message.body())));
            List<String> problems = done == count && auditIds.size() == count ? List.of()
                    : List.of("pipeline ceiling: " + done + " of " + count + " taken, " + auditIds.size()
                            + " results on " + OUTPUT_QUEUE);
            return new Result(count, elapsed.toNanos() / 1e9, cpu, auditIds.size(), problems);
        } finally {
            broker.stop();
        }
    }

    /** Up to {@value #BATCH} messages: waits for the first, then takes what is already there. */
    private static List<ClientMessage> receive(ClientConsumer consumer) throws Exception {
        List<ClientMessage> batch = new ArrayList<>(BATCH);
        ClientMessage first = consumer.receive(1_000);
        if (first == null) {
            return batch;
        }
        batch.add(first);
        for (ClientMessage next = consumer.receiveImmediate(); next != null; next = consumer.receiveImmediate()) {
            batch.add(next);
            if (batch.size() == BATCH) {
                break;
            }
        }
        return batch;
    }

    /** The text as UTF-8, or the bytes, as the service takes them. */
    private static byte[] payload(ClientMessage message) {
        ActiveMQBuffer body = message.getReadOnlyBodyBuffer();
        if (message.getType() == Message.TEXT_TYPE) {
            return TextMessageUtil.readBodyText(body).toString().getBytes(StandardCharsets.UTF_8);
        }
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        return bytes;
    }
}
