package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.gatekeeperFailedV2;
import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerLogin;
import io.claimguard.broker.BrokerRole;
import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import io.claimguard.testkit.ExternalArtemis;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.ServiceProcess;
import io.claimguard.testkit.TestBrokerUsers;
import io.claimguard.testkit.TestDatabase;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jms.core.JmsTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two instances of the service jar, as it ships, against one standalone Artemis broker and one database, sharing one
 * inbox folder (as a shared volume): competing consumers on the input queue, one leader at a time on the inbox.
 */
class SeveralInstancesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final int MESSAGES = 150;
    private static final int FILES = 150;

    private static Path work;
    private static TestDatabase database;
    private static ExternalArtemis broker;
    /** A producer of verifier results and a consumer of the effective ones, each with its own login. */
    private static ActiveMQConnectionFactory producer;
    private static ActiveMQConnectionFactory consumer;
    private static final Map<String, ServiceProcess> INSTANCES = new LinkedHashMap<>();

    @BeforeAll
    static void startTwoInstances() throws IOException {
        work = Files.createTempDirectory("claimguard-instances-");
        database = TestDatabase.createSeparate();
        broker = ExternalArtemis.create(work.resolve("artemis"), Map.of());
        producer = client(BrokerRole.PRODUCER);
        consumer = client(BrokerRole.CONSUMER);
        Files.createDirectories(inbox());
        for (String id : List.of("instance-a", "instance-b")) {
            INSTANCES.put(id, instance(id));
        }
        INSTANCES.values().forEach(ServiceProcess::start);
        INSTANCES.values().forEach(instance -> instance.awaitReady(PATIENCE));
    }

    @AfterAll
    static void stopAll() {
        INSTANCES.values().forEach(ServiceProcess::close);
        for (ActiveMQConnectionFactory client : new ActiveMQConnectionFactory[] {producer, consumer}) {
            if (client != null) {
                client.close();
            }
        }
        if (broker != null) {
            broker.kill();
        }
        if (database != null) {
            database.drop();
        }
    }

    @Test
    @DisplayName("Scenario: Two instances on one queue, one database and one shared inbox audit each input once, also when the inbox's leader dies")
    void twoInstancesShareTheWork() throws Exception {
        JmsTemplate jms = new JmsTemplate(producer);
        Set<String> messageIds = new HashSet<>();
        Set<String> fileIds = new HashSet<>();
        for (int i = 0; i < MESSAGES; i++) {
            String requestId = "instances-jms-" + i;
            messageIds.add(requestId);
            jms.send("verifier.results", session -> session.createTextMessage(gatekeeperFailedV2(requestId)));
        }
        for (int i = 0; i < FILES; i++) {
            String requestId = "instances-file-" + i;
            fileIds.add(requestId);
            drop(requestId + ".json", utf8(passingV1(requestId)));
        }

        // the instance that leads the inbox dies with files in hand; the other one takes the inbox over
        await().atMost(PATIENCE).until(() -> done() >= FILES / 5);
        String leader = inboxLeader();
        INSTANCES.get(leader).kill();
        await().atMost(PATIENCE).until(() -> done() == FILES && waiting() == 0);
        INSTANCES.get(leader).start();
        INSTANCES.get(leader).awaitReady(PATIENCE);

        JdbcTemplate sql = new JdbcTemplate(database.dataSource());
        await().atMost(PATIENCE).until(() -> sql.queryForObject(
                "SELECT count(DISTINCT request_id) FROM claimguard.verification_audit", Long.class) == MESSAGES + FILES);
        assertThat(sql.queryForObject("SELECT count(*) FROM claimguard.verification_audit", Long.class))
                .as("audit rows: one per input").isEqualTo(MESSAGES + FILES);
        assertThat(sql.queryForList("SELECT DISTINCT source_ref FROM claimguard.verification_audit WHERE source = 'file'",
                String.class)).hasSize(FILES);

        // every input forwarded: each JMS input's and each file's result on the output queue, each file in the outbox
        Set<String> forwarded = new HashSet<>();
        JmsTemplate results = new JmsTemplate(consumer);
        results.setReceiveTimeout(2_000);
        for (Message result; (result = results.receive("verifier.effective")) != null; ) {
            forwarded.add(JSON.readTree(((TextMessage) result).getText()).get("request_id").asString());
        }
        assertThat(forwarded).containsAll(messageIds).containsAll(fileIds);
        try (Stream<Path> outbox = Files.list(work.resolve("outbox"))) {
            assertThat(outbox.filter(file -> file.toString().endsWith(".json")).count()).isEqualTo(FILES);
        }
        try (Stream<Path> doneFiles = Files.list(inbox().resolve(".done"))) {
            assertThat(doneFiles.count()).as("each file in .done once").isEqualTo(FILES);
        }

        // both instances took messages (competing consumers), and said so in their summary lines
        for (String id : INSTANCES.keySet()) {
            assertThat(logsOf(id)).as("summary lines of " + id).contains("instance_id=" + id + " source=jms");
        }
        try (Connection connection = database.connect()) {
            await().atMost(PATIENCE).until(() -> AuditChainVerifier.verify(connection).unsealedRows() == 0);
            ChainReport chain = AuditChainVerifier.verify(connection);
            assertThat(chain.intact()).as(String.join("\n", chain.lines())).isTrue();
            assertThat(chain.verifiedSeals()).isEqualTo(MESSAGES + FILES);
        }
    }

    private static ActiveMQConnectionFactory client(BrokerRole role) {
        BrokerLogin login = TestBrokerUsers.login(role);
        return new ActiveMQConnectionFactory(broker.url(), login.user(), login.password());
    }

    private static ServiceProcess instance(String id) throws IOException {
        Map<String, String> properties = new HashMap<>();
        properties.put("claimguard.instance-id", id);
        properties.putAll(database.serviceProperties());
        properties.put("spring.artemis.mode", "native");
        properties.put("spring.artemis.broker-url", broker.url());
        properties.put("spring.artemis.user", TestBrokerUsers.login(BrokerRole.SERVICE).user());
        properties.put("spring.artemis.password", TestBrokerUsers.login(BrokerRole.SERVICE).password());
        properties.put("claimguard.file.inbox", inbox().toString());
        properties.put("claimguard.file.outbox", work.resolve("outbox").toString());
        properties.put("claimguard.file.shared", "true");
        properties.put("claimguard.file.leader-check-interval", "1s");
        properties.put("claimguard.file.settle-time", "200ms");
        properties.put("claimguard.file.poll-delay", "200ms");
        properties.put("claimguard.jms.concurrent-consumers", "2");
        properties.put("claimguard.management.port", Integer.toString(FreePort.onLoopback()));
        properties.put("claimguard.seal.period", "250ms");
        // one key for every instance, made by whichever starts first
        properties.put("claimguard.result-signing.generated-key", work.resolve("keys/result-signing.key").toString());
        Path logs = Files.createDirectories(work.resolve("logs-" + id));
        return new ServiceProcess(ServiceProcess.findJar(), ServiceProcess.SMALL_JVM_OPTIONS, properties, logs,
                Integer.parseInt(properties.get("claimguard.management.port")));
    }

    /** The instance whose file intake runs: the inbox's leader. */
    private static String inboxLeader() {
        List<String> leaders = new ArrayList<>();
        INSTANCES.forEach((id, instance) -> {
            if ("Started".equals(instance.routes().get("file-intake"))) {
                leaders.add(id);
            }
        });
        assertThat(leaders).as("instances whose file intake runs").hasSize(1);
        return leaders.get(0);
    }

    private static Path inbox() {
        return work.resolve("inbox");
    }

    private static void drop(String name, byte[] content) throws IOException {
        Path temporary = inbox().resolve(name + ".tmp");
        Files.write(temporary, content);
        Files.move(temporary, inbox().resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static long done() throws IOException {
        Path done = inbox().resolve(".done");
        if (!Files.isDirectory(done)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(done)) {
            return files.count();
        }
    }

    private static long waiting() throws IOException {
        try (Stream<Path> files = Files.list(inbox())) {
            return files.filter(file -> file.getFileName().toString().endsWith(".json")).count();
        }
    }

    private static String logsOf(String id) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> logs = Files.list(work.resolve("logs-" + id))) {
            for (Path log : logs.sorted().toList()) {
                all.append(Files.readString(log));
            }
        }
        return all.toString();
    }
}
