package io.claimguard.config;

import io.claimguard.domain.Limits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * The {@code claimguard.*} settings. Defaults live in {@code application.yml}, so that the configuration
 * table of docs/operating.md, the YAML and the running service agree. Each component's {@code @param} is its
 * description in the configuration metadata the build generates.
 *
 * @param limits how large an envelope may be
 * @param instanceId the name this instance goes by in the summary log line and the metrics; blank: host name and
 *     process id
 */
@ConfigurationProperties("claimguard")
public record ClaimGuardProperties(
        FileDrop file, Jms jms, Kafka kafka, Broker broker, @NestedConfigurationProperty Limits limits, Processing processing, Audit audit, Database database,
        Seal seal, Checkpoint checkpoint, Telemetry telemetry, String instanceId, Judgement policy, DeadLetter deadLetter) {

    public ClaimGuardProperties {
        if (deadLetter != null && limits != null && deadLetter.cap() < limits.maxBytes()) {
            throw new IllegalArgumentException("claimguard.dead-letter.max-stored-bytes (" + deadLetter.cap()
                    + " bytes) must be at least claimguard.limits.max-bytes (" + limits.maxBytes() + " bytes): every"
                    + " input the service could accept is kept whole in dead_letter, so that it can be re-driven from there");
        }
    }

    /**
     * The name this instance goes by in the summary log line and the metrics' {@code instance_id} tag, so that with
     * several instances each one's work can be told apart: {@code claimguard.instance-id}, or when blank the host
     * name and the process id (a pod's name on Kubernetes).
     */
    public String instanceName() {
        if (instanceId != null && !instanceId.isBlank()) {
            return instanceId.strip();
        }
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "unknown-host";
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    /**
     * The file drop: inputs arrive in {@code inbox}; file inputs' results are also written to {@code outbox}.
     *
     * @param inbox the folder inputs are dropped in
     * @param outbox the folder file inputs' effective results are written to
     * @param pollDelay how often the inbox is listed
     * @param settleTime how long a file that is not a complete JSON object or array must have been unchanged before it
     *     is read (a complete one is read at once)
     * @param concurrency files processed at the same time (their audit rows share database transactions)
     * @param shared whether several instances share the inbox (a shared volume): then one of them at a time, the
     *     leader, takes its files; the leader holds a file lock in {@code <inbox>/.claimguard-leader}
     * @param leaderCheckInterval with a shared inbox, how often each instance tries to become the leader; a leader
     *     that stopped renewing its claim for three intervals is taken over
     * @param maxDeliveryAttempts times a file is taken and fails (other than while the database is unreachable) before
     *     it is set aside in {@code .error/} as {@code processing_failed}, as the broker does with a JMS message
     * @param redeliveryDelay how long a file that failed waits before it is taken again; doubles with each failure
     * @param maxRedeliveryDelay the longest such wait
     */
    public record FileDrop(Path inbox, Path outbox, Duration pollDelay, Duration settleTime, int concurrency,
            boolean shared, Duration leaderCheckInterval, int maxDeliveryAttempts, Duration redeliveryDelay,
            Duration maxRedeliveryDelay) {
    }

    /**
     * The JMS queues and how the intake takes its messages: in batches, each in one transaction.
     *
     * @param inputQueue where verifier results come from
     * @param outputQueue where the effective results go
     * @param deadLetterQueue where rejected and failed inputs go, as they came
     * @param concurrentConsumers sessions taking batches at the same time
     * @param batchSize messages in one transaction at most; their audit rows are committed together
     * @param batchTimeout how long a batch waits to fill once its first message has come
     * @param consumerWindowSize how much each session may hold ahead of processing
     * @param reconnectDelay the wait before a session lost with the broker is opened again
     * @param maxDeliveryAttempts broker-side deliveries before a message that keeps rolling back (for example
     *     one that crashes the service) moves to the dead-letter queue without a dead_letter row
     * @param redeliveryDelay how long a message that rolled back waits before it is delivered again; doubles with each
     *     failure
     * @param maxRedeliveryDelay the longest such wait
     */
    public record Jms(
            String inputQueue,
            String outputQueue,
            String deadLetterQueue,
            int concurrentConsumers,
            int batchSize,
            Duration batchTimeout,
            DataSize consumerWindowSize,
            Duration reconnectDelay,
            int maxDeliveryAttempts,
            Duration redeliveryDelay,
            Duration maxRedeliveryDelay) {
    }

    /**
     * The Kafka entry, off unless {@code enabled}. Every other Kafka client setting (security, timeouts) is Camel's
     * {@code camel.component.kafka.*}.
     *
     * @param enabled whether the Kafka entry runs
     * @param bootstrapServers the brokers a client first connects to
     * @param inputTopic where verifier results come from
     * @param outputTopic where the effective results go
     * @param deadLetterTopic where rejected and failed inputs go, as they came
     * @param groupId the consumer group; instances that share it share the input topic's partitions
     * @param consumers consumer threads of this instance, each with partitions of its own
     * @param batchSize records taken in one batch at most ({@code max.poll.records}); their audit rows are committed
     *     together, and their offsets once their results are on the output topic
     * @param batchTimeout how long a batch waits to fill
     * @param maxDeliveryAttempts how often a record may be handed to processing without its offset being committed (it
     *     failed, or the process ended while it was in hand) before it is dead-lettered as {@code processing_failed};
     *     at least 2, since a record that was in a failed batch beside the one that failed is charged one delivery
     * @param redeliveryDelay how long a record handed out before waits before it is processed again, doubling with
     *     each further delivery up to {@code maxRedeliveryDelay} (well below the client's {@code max.poll.interval.ms})
     * @param maxRedeliveryDelay the longest such wait
     * @param sessionTimeout how long the group waits for an instance that stopped answering (killed, frozen, cut off)
     *     before its partitions go to the others; heartbeats every third of it
     * @param reconnectBackoffMax the longest wait between attempts to reach a broker that does not answer (the wait
     *     doubles up to it), which bounds how often an unreachable Kafka is tried and logged
     */
    public record Kafka(boolean enabled, String bootstrapServers, String inputTopic, String outputTopic,
            String deadLetterTopic, String groupId, int consumers, int batchSize, Duration batchTimeout,
            int maxDeliveryAttempts, Duration redeliveryDelay, Duration maxRedeliveryDelay, Duration sessionTimeout,
            Duration reconnectBackoffMax) {

        public Kafka {
            if (enabled && maxDeliveryAttempts < 2) {
                throw new IllegalArgumentException("claimguard.kafka.max-delivery-attempts must be at least 2, got "
                        + maxDeliveryAttempts + ": a record in a failed batch beside the record that failed is charged"
                        + " one delivery, and must still be processed once after it");
            }
        }
    }

    /**
     * The embedded Artemis broker (used with {@code spring.artemis.mode=embedded}).
     *
     * @param dataDirectory where its journal lives
     * @param acceptorUrl where producers in other processes connect (Artemis core protocol and AMQP 1.0, unless the
     *     URL names its {@code protocols}); blank for none
     * @param globalMaxSize messages kept in memory before paging to disk; null for a quarter of the heap
     * @param outputRetention how long a result nobody consumes stays on the output queue before the broker drops it
     *     (every result stays in the audit table); null or zero keeps results until they are consumed
     * @param credentialsFile where the broker's logins are kept when none are configured: generated on the first start,
     *     read on every later one (and by the command-line tools)
     * @param users the producer's, consumer's and operator's logins; with these or {@code spring.artemis.user} set, the
     *     logins are configured and the credentials file is neither read nor written
     */
    public record Broker(Path dataDirectory, String acceptorUrl, DataSize globalMaxSize, Duration outputRetention,
            Path credentialsFile, Users users) {
    }

    /**
     * Configured broker logins by role ({@code claimguard.broker.users.producer.user}, {@code .password}, ...); ClaimGuard's
     * own is {@code spring.artemis.user} and {@code .password}.
     */
    public record Users(Login producer, Login consumer, Login operator) {
    }

    /**
     * A configured broker login; {@link #toString()} never shows the password.
     *
     * @param user the login's user name
     * @param password its password
     */
    public record Login(String user, String password) {

        /** Whether anything of it is set. */
        public boolean given() {
            return (user != null && !user.isBlank()) || (password != null && !password.isEmpty());
        }

        @Override
        public String toString() {
            return "Login[user=" + user + ", password=(hidden)]";
        }
    }

    /**
     * Retries inside the service.
     *
     * @param maxRetries retries of an input whose processing fails for a reason other than an unreachable
     *     database, before it is dead-lettered
     * @param retryDelay the delay before the first such retry
     * @param outageRetryDelay the first delay while the database is unreachable; doubles up to the maximum,
     *     and such retries never give up
     * @param outageMaxRetryDelay the longest delay while the database is unreachable
     */
    public record Processing(int maxRetries, Duration retryDelay, Duration outageRetryDelay, Duration outageMaxRetryDelay) {
    }

    /**
     * How audit rows are written: inputs processed at the same time are committed together (group commit).
     *
     * @param writers threads writing batches, each with one database connection at a time
     * @param maxBatchSize the most inputs in one statement and transaction
     */
    public record Audit(int writers, int maxBatchSize) {
    }

    /**
     * How the service uses PostgreSQL: {@code spring.datasource.*} is the login it is given, {@code spring.flyway.*}
     * the one that migrates (by default the same). The service's own connections (its pool and the explorer's) use a
     * runtime login that can add audit rows but never change or remove them; see {@link RuntimeLogin}.
     *
     * @param runtimeRole the role every runtime connection takes with {@code SET ROLE} (exact name, case-sensitive);
     *     blank to keep the runtime login's own privileges. Migrations run on Flyway's own connection and are not
     *     affected.
     * @param runtimeLogin the login ClaimGuard makes (or brings up to date) and connects as when the login it is given
     *     is privileged (a superuser, or able to change audit rows); blank: ClaimGuard makes none, and a privileged
     *     login is refused unless {@code allowPrivilegedLogin}
     * @param allowPrivilegedLogin for a trial only: run on a privileged login as it is (acting as the runtime role),
     *     saying so at WARN at every start, instead of making a runtime login or refusing to start
     */
    public record Database(String runtimeRole, String runtimeLogin, boolean allowPrivilegedLogin) {
    }

    /**
     * The sealer, which chains every audit row into {@code claimguard.audit_seal}.
     *
     * @param period the time between sealing rounds
     * @param batchSize the most rows sealed in one transaction; a round goes on until a batch is not full
     * @param fullScanInterval how often a round looks at the whole audit table (also at start and after failed
     *     rounds); the rounds in between look only at rows newer than those sealed this long ago, so a row whose
     *     insert stayed uncommitted about this long waits for the next full scan
     */
    public record Seal(Duration period, int batchSize, Duration fullScanInterval) {
    }

    /**
     * Signed checkpoints of the chain's head, kept outside the database.
     *
     * @param privateKey the Ed25519 signing key file ({@code claimguard keygen} makes one); blank: no checkpoints
     * @param directory where the checkpoint log files are appended
     * @param period how often the head is signed when it moved (and once more when the service stops)
     * @param origin the name checkpoints carry; blank: {@code claimguard/<host>:<port>/<database>} from the JDBC URL
     */
    public record Checkpoint(String privateKey, Path directory, Duration period, String origin) {
    }

    /**
     * The judgement policy every input is judged under (the domain's {@code Policy}); its id ({@code name@version}) is
     * recorded on every audit row.
     *
     * @param name the policy's name
     * @param version its version: give a changed policy a new one, so that audit rows judged by each can be told apart
     * @param ruleCaps guard rule code to cap, for caps stricter than the contract's (e.g. {@code gatekeeper.fail: REJECT})
     * @param findingCaps finding code to cap (e.g. {@code evidence.unknown_invocation: LOW_CONFID}); none by default
     */
    public record Judgement(String name, int version, Map<String, String> ruleCaps, Map<String, String> findingCaps) {

        public Judgement {
            ruleCaps = ruleCaps == null ? Map.of() : Map.copyOf(ruleCaps);
            findingCaps = findingCaps == null ? Map.of() : Map.copyOf(findingCaps);
        }
    }

    /**
     * What {@code claimguard.dead_letter} keeps of a set-aside input.
     *
     * @param maxStoredBytes the most of an input's bytes its row keeps ({@code payload}); a larger input keeps its first
     *     this many, with its whole size and SHA-256, and is marked {@code payload_truncated} (its whole bytes stay in the
     *     inbox's {@code .error/} folder, on the dead-letter queue or topic). At least {@code claimguard.limits.max-bytes},
     *     so that every input the service could have accepted is kept whole; at most 1 GiB (a PostgreSQL value)
     */
    public record DeadLetter(DataSize maxStoredBytes) {

        private static final long MOST = 1L << 30;

        public DeadLetter {
            if (maxStoredBytes == null || maxStoredBytes.toBytes() < 1 || maxStoredBytes.toBytes() > MOST) {
                throw new IllegalArgumentException("claimguard.dead-letter.max-stored-bytes must be from 1 byte to 1GB, got "
                        + maxStoredBytes);
            }
        }

        /** The cap in bytes. */
        public int cap() {
            return (int) maxStoredBytes.toBytes();
        }
    }

    /**
     * OpenTelemetry: a span per input and a {@code gen_ai.evaluation.result} event per audited input and per claim
     * check, exported by OTLP (http/protobuf). Off by default; when off, no part of OpenTelemetry is started.
     *
     * @param enabled whether OpenTelemetry runs
     * @param otlpEndpoint the OTLP/HTTP receiver's base URL; spans go to {@code /v1/traces}, events to {@code /v1/logs}
     */
    public record Telemetry(boolean enabled, String otlpEndpoint) {
    }
}
