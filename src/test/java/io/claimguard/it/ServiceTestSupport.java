package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerRole;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.seal.AuditSealer;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.TcpProxy;
import io.claimguard.testkit.TestBrokerUsers;
import io.claimguard.testkit.TestDatabase;
import io.claimguard.testkit.TestOperator;
import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the whole service against the real PostgreSQL (a database of this run's own, reached through a
 * {@link TcpProxy} that a test can cut) and the embedded Artemis broker, with inbox, outbox and journal in a
 * temporary folder. Every test class shares one application context. The broker requires a login: the tests know the
 * {@link TestBrokerUsers}, configured on the service, and reach the broker through its acceptor with the login of the
 * role each step plays (a producer sends inputs, a consumer takes results, an operator browses the dead-letter queue),
 * as anyone outside the service does.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class ServiceTestSupport {

    static final TestDatabase DATABASE = TestDatabase.get();
    static final TcpProxy DATABASE_PROXY = startProxy();
    static final Path WORK = temporaryFolder("claimguard-it-");
    static final Path INBOX = WORK.resolve("inbox");
    static final Path OUTBOX = WORK.resolve("outbox");
    static final String INPUT_QUEUE = "it.verifier.results";
    static final String OUTPUT_QUEUE = "it.verifier.effective";
    static final String DEAD_LETTER_QUEUE = "it.verifier.results.DLQ";
    static final Duration PATIENCE = Duration.ofSeconds(30);
    /** {@code claimguard.logging.max-repeats-per-minute} of the test service. */
    static final int MAX_REPEATS_PER_MINUTE = 100_000;

    /** {@code claimguard.file.max-delivery-attempts} of the test service. */
    static final int FILE_ATTEMPTS = 4;
    static final int BROKER_PORT = FreePort.onLoopback();
    static final String INSTANCE_ID = "it-instance-1";
    /** The test logins as the service writes its credentials file, for the command-line tools (outside {@link #WORK}). */
    static final Path BROKER_CREDENTIALS = TestBrokerUsers.credentialsFile(temporaryFolder("claimguard-it-credentials-"));
    /**
     * {@code claimguard.dead-letter.max-stored-bytes} of the test service: the default, 8 MiB. (Left to the default on
     * purpose: a context of its own such as KafkaIntakeIT's can then set another, which a value here would override.)
     */
    static final int MAX_STORED_BYTES = 8 * 1024 * 1024;
    /**
     * The service signs checkpoints of the chain into this directory, with {@link #CHECKPOINT_KEY}: both outside
     * {@link #WORK}, whose contents the tests of the file drop account for.
     */
    private static final Path CHECKPOINT_HOME = temporaryFolder("claimguard-it-checkpoints-");
    static final Path CHECKPOINTS = CHECKPOINT_HOME.resolve("checkpoints");
    static final Path CHECKPOINT_KEY = signingKey(CHECKPOINT_HOME.resolve("checkpoint.key"));
    /**
     * The service signs its results with a key it generates on its first start (no key is configured, as by default),
     * here; the public key beside it is what consumers verify with. Outside {@link #WORK} too.
     */
    static final Path RESULT_SIGNING_KEY = CHECKPOINT_HOME.resolve("keys").resolve("result-signing.key");
    static final Path RESULT_SIGNING_PUBLIC_KEY = Path.of(RESULT_SIGNING_KEY + ".pub");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /**
     * A second operator, for the login throttling tests: they throttle this one, never {@link TestOperator}, whose
     * login every other test uses.
     */
    static final String SECOND_OPERATOR = "second-operator";
    static final String SECOND_PASSWORD = "second-operator-password";

    /** Queries go straight to the database, not through the proxy, so that they work during an outage. */
    static final JdbcTemplate SQL = new JdbcTemplate(new DriverManagerDataSource(
            DATABASE.jdbcUrl(), DATABASE.username(), DATABASE.password()));

    /** ClaimGuard's own connection factory, with its own login: the one that may put results on the output queue. */
    @Autowired
    ConnectionFactory connectionFactory;

    @LocalServerPort
    int managementPort;

    @DynamicPropertySource
    static void serviceProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DATABASE.jdbcUrl("127.0.0.1", DATABASE_PROXY.port()));
        registry.add("spring.datasource.username", () -> DATABASE.username());
        registry.add("spring.datasource.password", () -> DATABASE.password());
        registry.add("spring.datasource.hikari.connection-timeout", () -> "1000");
        registry.add("claimguard.management.port", () -> "0");
        registry.add("claimguard.file.inbox", INBOX::toString);
        registry.add("claimguard.file.outbox", OUTBOX::toString);
        registry.add("claimguard.file.poll-delay", () -> "200ms");
        registry.add("claimguard.file.settle-time", () -> "500ms");
        // a file that fails waits 100, 200, 400, 400 ms, and is set aside after its fourth failure
        registry.add("claimguard.file.redelivery-delay", () -> "100ms");
        registry.add("claimguard.file.max-redelivery-delay", () -> "400ms");
        registry.add("claimguard.file.max-delivery-attempts", () -> String.valueOf(FILE_ATTEMPTS));
        registry.add("claimguard.broker.data-directory", () -> WORK.resolve("artemis").toString());
        registry.add("claimguard.broker.acceptor-url", () -> "tcp://127.0.0.1:" + BROKER_PORT);
        registry.add("claimguard.jms.input-queue", () -> INPUT_QUEUE);
        registry.add("claimguard.jms.output-queue", () -> OUTPUT_QUEUE);
        registry.add("claimguard.jms.dead-letter-queue", () -> DEAD_LETTER_QUEUE);
        registry.add("claimguard.processing.retry-delay", () -> "50ms");
        registry.add("claimguard.processing.outage-retry-delay", () -> "200ms");
        registry.add("claimguard.processing.outage-max-retry-delay", () -> "1s");
        registry.add("claimguard.seal.period", () -> "250ms");
        // the rollups compacted often enough for RollupCompactionIT to see it
        registry.add("claimguard.rollups.compaction-interval", () -> "2s");
        registry.add("claimguard.checkpoint.private-key", CHECKPOINT_KEY::toString);
        registry.add("claimguard.checkpoint.directory", CHECKPOINTS::toString);
        registry.add("claimguard.checkpoint.period", () -> "500ms");
        registry.add("claimguard.instance-id", () -> INSTANCE_ID);
        // the tests wait for single WARN lines of many inputs in a minute; the bound itself is RepeatedLinesFilterTest's
        registry.add("claimguard.logging.max-repeats-per-minute", () -> String.valueOf(MAX_REPEATS_PER_MINUTE));
        registry.add("claimguard.result-signing.generated-key", RESULT_SIGNING_KEY::toString);
        // no message waits in a session's buffer behind a batch a test holds up (BatchedAuditIT locks the audit table)
        registry.add("claimguard.jms.consumer-window-size", () -> "0");
        // the audit explorer on, with the operator whose login the management port's detail asks for
        registry.add("claimguard.explorer.enabled", () -> "true");
        registry.add("claimguard.explorer.page-size", () -> "10");
        TestOperator.properties().forEach((name, value) -> registry.add(name, () -> value));
        registry.add("claimguard.explorer.users[1].name", () -> SECOND_OPERATOR);
        registry.add("claimguard.explorer.users[1].password",
                () -> "{bcrypt}" + new BCryptPasswordEncoder(4).encode(SECOND_PASSWORD));
        // the login throttle with short waits, and a per-name limit a test reaches from three addresses
        registry.add("claimguard.explorer.login-throttle.delay", () -> "5s");
        registry.add("claimguard.explorer.login-throttle.max-delay", () -> "10s");
        registry.add("claimguard.explorer.login-throttle.max-failures-per-name", () -> "12");
        // as behind a TLS-terminating proxy on this host: 127.0.0.1 may forward the client's address and scheme
        // (X-Forwarded-For, X-Forwarded-Proto); any other client's such headers are ignored
        registry.add("server.forward-headers-strategy", () -> "native");
        registry.add("server.tomcat.remoteip.internal-proxies", () -> "127\\.0\\.0\\.1");
        TestBrokerUsers.serviceProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    /** Where the tests reach the broker: the embedded broker's acceptor (an external broker's URL in its own tests). */
    String brokerUrl() {
        return "tcp://127.0.0.1:" + BROKER_PORT;
    }

    /** A JMS template with the role's login at {@link #brokerUrl()}. */
    JmsTemplate jms(BrokerRole role) {
        JmsTemplate template = new JmsTemplate(TestBrokerUsers.connectionFactory(brokerUrl(), role));
        template.setReceiveTimeout(PATIENCE.toMillis());
        return template;
    }

    // ---- inputs

    static String uniqueId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Drops a file the way writers should: written under a temporary (hidden) name, then renamed. */
    static Path dropFile(String name, byte[] content) {
        try {
            Files.createDirectories(INBOX);
            Path temporary = INBOX.resolve("." + UUID.randomUUID() + ".tmp");
            Files.write(temporary, content);
            return Files.move(temporary, INBOX.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Drops a file whose name is these bytes, which Java cannot name itself when they are not valid UTF-8: written under
     * a hidden temporary name, then renamed by the shell.
     */
    static void dropFileWithRawName(byte[] name, byte[] content) {
        try {
            Files.createDirectories(INBOX);
            Path temporary = Files.write(INBOX.resolve("." + UUID.randomUUID() + ".tmp"), content);
            StringBuilder octal = new StringBuilder();
            for (byte b : name) {
                octal.append(String.format("\\%03o", b & 0xff));
            }
            Process mv = new ProcessBuilder("/bin/sh", "-c", "mv -- \"$0\" \"$1/$(printf \"$2\")\"",
                    temporary.toString(), INBOX.toString(), octal.toString()).redirectErrorStream(true).start();
            String output = new String(mv.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(mv.waitFor()).as("mv: " + output).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Lines logged while it is open, by any logger (WARN and worse, or all): close it to stop listening. */
    static final class LogCapture implements AutoCloseable {

        private final ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.read.ListAppender<>();
        private final ch.qos.logback.classic.Logger root =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

        LogCapture() {
            appender.start();
            root.addAppender(appender);
        }

        /** The lines so far, of any level, that hold the text. */
        List<ch.qos.logback.classic.spi.ILoggingEvent> lines(String text) {
            synchronized (appender) {
                return appender.list.stream().filter(event -> event.getFormattedMessage().contains(text)).toList();
            }
        }

        /** The WARN and ERROR lines so far that hold the text. */
        List<ch.qos.logback.classic.spi.ILoggingEvent> warnings(String text) {
            return warnings().stream().filter(event -> event.getFormattedMessage().contains(text)).toList();
        }

        /** The WARN and ERROR lines so far. */
        List<ch.qos.logback.classic.spi.ILoggingEvent> warnings() {
            synchronized (appender) {
                return appender.list.stream()
                        .filter(event -> event.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN))
                        .toList();
            }
        }

        @Override
        public void close() {
            root.detachAppender(appender);
        }
    }

    void sendText(String text, String testCase) {
        jms(BrokerRole.PRODUCER).send(INPUT_QUEUE, session -> {
            TextMessage message = session.createTextMessage(text);
            message.setStringProperty("testCase", testCase);
            return message;
        });
    }

    /** Sends a message the test makes, of any JMS type, with the test case as a property for selectors. */
    void send(Function<Session, Message> create, String testCase) {
        jms(BrokerRole.PRODUCER).send(INPUT_QUEUE, session -> {
            Message message = create.apply(session);
            message.setStringProperty("testCase", testCase);
            return message;
        });
    }

    void sendBytes(byte[] bytes, String testCase) {
        jms(BrokerRole.PRODUCER).send(INPUT_QUEUE, session -> {
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(bytes);
            message.setStringProperty("testCase", testCase);
            return message;
        });
    }

    // ---- AMQP 1.0, with a client nobody in this project wrote (Qpid Proton's Python binding)

    /** Sends the messages (as {@code src/test/resources/amqp/send.py} describes them) with a Python AMQP producer. */
    static String sendAmqp(Path folder, String url, String queue, List<Map<String, Object>> messages) throws Exception {
        Path file = Files.createTempFile(folder, "messages-", ".json");
        Files.write(file, JsonMapper.builder().build().writeValueAsBytes(messages));
        return python("send.py", url, queue, file.toString());
    }

    /** The first message matching the JMS selector, taken by a Python AMQP consumer, as the JSON it prints. */
    static String receiveAmqp(String url, String queue, String selector) throws Exception {
        return python("receive.py", url, queue, selector, Long.toString(PATIENCE.toSeconds()));
    }

    /** The same, browsed (AMQP distribution mode "copy"): the message stays on the queue. */
    static String browseAmqp(String url, String queue, String selector) throws Exception {
        return python("receive.py", url, queue, selector, Long.toString(PATIENCE.toSeconds()), "browse");
    }

    /**
     * One AMQP 1.0 step by Qpid Proton ({@code src/test/resources/amqp/attempt.py}) with the SASL mechanisms given,
     * as the JSON it prints: {@code {"ok": true}} or {@code {"ok": false, "error": "..."}}.
     */
    static String attemptAmqp(String url, String mechanisms, String action, String address) throws Exception {
        return python("attempt.py", url, mechanisms, action, address);
    }

    private static String python(String script, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3", "src/test/resources/amqp/" + script));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(script + ": " + output).isZero();
        return output;
    }

    // ---- management port

    /** GET on the management port as the {@link TestOperator}: status code and body. */
    HttpResponse<String> management(String path) {
        return get(path, true);
    }

    /** GET on the management port without a login: status code and body. */
    HttpResponse<String> anonymous(String path) {
        return get(path, false);
    }

    private HttpResponse<String> get(String path, boolean operator) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(Duration.ofSeconds(15));
        if (operator) {
            request.header("Authorization", TestOperator.basicAuthorization());
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- outputs

    /**
     * The next effective result for this request id on the output queue, taken as a consumer, or null after the
     * patience runs out.
     */
    Message receiveResult(String requestId) {
        return jms(BrokerRole.CONSUMER).receiveSelected(OUTPUT_QUEUE, "ClaimGuardRequestId = '" + requestId + "'");
    }

    /** How many results for this request id are on the output queue, browsed as a consumer. */
    long resultsOnOutputQueue(String requestId) {
        return jms(BrokerRole.CONSUMER).browseSelected(OUTPUT_QUEUE, "ClaimGuardRequestId = '" + requestId + "'",
                (session, browser) -> {
                    long count = 0;
                    for (Enumeration<?> messages = browser.getEnumeration(); messages.hasMoreElements(); messages.nextElement()) {
                        count++;
                    }
                    return count;
                });
    }

    /** A message from the dead-letter queue, read while its session is open (large messages stream). */
    record DeadLetterMessage(byte[] body, String reason) {
    }

    /**
     * The dead-letter copy tagged with the test case, browsed as an operator (who may read the dead-letter queue, and
     * nobody may take from it): the copy stays there. Null when none came within the patience.
     */
    DeadLetterMessage receiveDeadLetter(String testCase) {
        try {
            return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> browseDeadLetter(testCase), found -> found != null);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return null;
        }
    }

    private DeadLetterMessage browseDeadLetter(String testCase) {
        return jms(BrokerRole.OPERATOR).browseSelected(DEAD_LETTER_QUEUE, "testCase = '" + testCase + "'",
                (session, browser) -> {
                    Enumeration<?> messages = browser.getEnumeration();
                    if (!messages.hasMoreElements()) {
                        return null;
                    }
                    Message message = (Message) messages.nextElement();
                    return new DeadLetterMessage(bytes(message), message.getStringProperty("ClaimGuardDeadLetterReason"));
                });
    }

    static String text(Message message) throws JMSException {
        return ((TextMessage) message).getText();
    }

    static byte[] bytes(Message message) throws JMSException {
        return JmsClient.bytesOf(message);
    }

    static List<Map<String, Object>> auditRows(String requestId) {
        return SQL.queryForList("SELECT * FROM claimguard.verification_audit WHERE request_id = ? ORDER BY id", requestId);
    }

    static Map<String, Object> awaitAuditRow(String requestId) {
        await().atMost(PATIENCE).until(() -> !auditRows(requestId).isEmpty());
        return auditRows(requestId).get(0);
    }

    /** The finding rows of one audit row in ordinal order: ordinal, claim_ordinal (null for the whole output), code, detail. */
    static List<Map<String, Object>> findingRows(long auditId) {
        return SQL.queryForList("""
                SELECT ordinal, claim_ordinal, code, detail FROM claimguard.finding WHERE audit_id = ? ORDER BY ordinal""",
                auditId);
    }

    static List<Map<String, Object>> deadLetters(String sourceRef) {
        return SQL.queryForList("SELECT * FROM claimguard.dead_letter WHERE source_ref = ? ORDER BY id", sourceRef);
    }

    static Map<String, Object> awaitDeadLetter(String sourceRef) {
        await().atMost(PATIENCE).until(() -> !deadLetters(sourceRef).isEmpty());
        return deadLetters(sourceRef).get(0);
    }

    // ---- a value the database refuses

    /**
     * Request ids starting with this are refused by the test database, by a CHECK constraint that
     * {@link #refuseRequestIdsWithRefusedPrefix} adds: a stand-in for any value PostgreSQL refuses as data (SQLSTATE
     * class 23 here; a DBA's constraint, a trigger), now that ClaimGuard stores every value an envelope can hold.
     */
    static final String REFUSED_PREFIX = "refused-";

    static void refuseRequestIdsWithRefusedPrefix() throws SQLException {
        try (Connection sql = DATABASE.connect()) {
            TestDatabase.refuseRequestIdsLike(sql, REFUSED_PREFIX + "%");
        }
    }

    // ---- seals

    /** Whether the input's audit rows exist and all have a seal. */
    static boolean sealed(String requestId) {
        return Boolean.TRUE.equals(SQL.queryForObject("""
                SELECT count(*) > 0 AND count(*) = count(s.audit_id)
                FROM claimguard.verification_audit a LEFT JOIN claimguard.audit_seal s ON s.audit_id = a.id
                WHERE a.request_id = ?""", Boolean.class, requestId));
    }

    /**
     * Takes the sealers' advisory lock for this session, as another service instance does while it seals: the
     * service's sealer then seals nothing until the session releases it or closes.
     */
    static void holdSealerLock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
            lock.setLong(1, AuditSealer.LOCK_KEY);
            lock.executeQuery().close();
        }
    }

    static Path done(String name) {
        return INBOX.resolve(".done").resolve(name);
    }

    static Path error(String name) {
        return INBOX.resolve(".error").resolve(name);
    }


    private static TcpProxy startProxy() {
        try {
            return new TcpProxy(DATABASE.host(), DATABASE.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A signing key file, and its public key beside it as {@code <file>.pub}. */
    private static Path signingKey(Path file) {
        KeyPair pair = Ed25519Keys.generate();
        try {
            Files.writeString(file, Ed25519Keys.signingKeyPem(pair));
            Files.writeString(Path.of(file + ".pub"), Ed25519Keys.publicKeyPem(pair.getPublic()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    static Path temporaryFolder(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
