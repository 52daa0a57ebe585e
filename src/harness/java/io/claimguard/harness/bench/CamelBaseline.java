package io.claimguard.harness.bench;

import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.audit.AuditRecord;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.Limits;
import io.claimguard.domain.ProjectedClaim;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.ReceivedInput;
import io.claimguard.testkit.JmsClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.jdbc.JdbcConstants;
import org.apache.camel.component.jms.JmsComponent;
import org.apache.camel.impl.DefaultCamelContext;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The baseline: ClaimGuard's work done the way the Camel examples do it, one message at a time. An embedded
 * Artemis broker (persistent journal, in-VM acceptor) and a plain Camel context in the harness's JVM; one route
 * {@code jms -> process -> jdbc -> process -> jms} with one consumer and default acknowledgement, each message its
 * own database transaction. The processing is the service's domain code, and the one statement is the one the
 * service ran per input before group commit, so that the baseline writes the same rows the same way.
 */
final class CamelBaseline {

    private static final String INPUT_QUEUE = "baseline.in";
    private static final String OUTPUT_QUEUE = "baseline.out";
    private static final String ROUTE_ID = "baseline";
    private static final String VERIFICATION = "benchVerification";

    /**
     * {@code AuditSql.INSERT_VERIFICATION} as of commit d7c3f4c, the service's single-input statement until group
     * commit replaced it (2b7d0b6): the audit row and its claim_check rows in one statement, camel-jdbc named
     * parameters, JSON parameters cast to jsonb. Its audit document is the one the service writes since 01c37b7
     * (the envelope plus {@code effective_result}), so that the baseline writes the same rows as the service.
     */
    static final String INSERT_VERIFICATION = """
            WITH new_row AS (
                SELECT nextval(pg_get_serial_sequence('claimguard.verification_audit', 'id')) AS id
            ), keys AS (
                INSERT INTO claimguard.audit_input_key (input_sha256, audit_id, audited_at)
                SELECT CAST(:?input_sha256 AS bytea), new_row.id, now() FROM new_row
                ON CONFLICT ON CONSTRAINT verification_audit_input_sha256_key DO NOTHING
                RETURNING audit_id
            ), inserted AS (
                INSERT INTO claimguard.verification_audit (
                    id, request_id, source, source_ref, received_at, model_verdict, effective_verdict, downgraded,
                    guard_reasons, projection_mode, groundedness_score, critical_fact_count, input_sha256, audit)
                SELECT new_row.id, :?request_id, :?source, :?source_ref, :?received_at, :?model_verdict,
                       :?effective_verdict, :?downgraded,
                       ARRAY(SELECT jsonb_array_elements_text(CAST(:?guard_reasons AS jsonb))),
                       :?projection_mode, :?groundedness_score, :?critical_fact_count, :?input_sha256,
                       CAST(:?envelope AS jsonb) || jsonb_build_object(
                           CASE WHEN CAST(:?envelope AS jsonb) -> 'effective_result' IS NOT NULL
                                THEN 'claimguard_effective_result' ELSE 'effective_result' END,
                           jsonb_set(CAST(:?effective_result AS jsonb), '{audit_id}', to_jsonb(new_row.id)))
                FROM new_row
                JOIN keys ON keys.audit_id = new_row.id
                RETURNING id, audited_at
            ), claims AS (
                INSERT INTO claimguard.claim_check (
                    audit_id, ordinal, claim_id, claim_text, claim_type, verification, legacy_verification,
                    is_critical, detail, evidence_refs, audited_at)
                SELECT inserted.id, c.ordinal, c.claim_id, c.claim_text, c.claim_type, c.verification,
                       c.legacy_verification, c.is_critical, c.detail, c.evidence_refs, inserted.audited_at
                FROM inserted
                CROSS JOIN jsonb_to_recordset(CAST(:?claims AS jsonb)) AS c(
                    ordinal integer, claim_id text, claim_text text, claim_type text, verification text,
                    legacy_verification text, is_critical boolean, detail text, evidence_refs jsonb)
            )
            SELECT id AS audit_id, true AS created FROM inserted
            UNION ALL
            SELECT audit_id, false FROM claimguard.audit_input_key
            WHERE input_sha256 = :?input_sha256 AND NOT EXISTS (SELECT 1 FROM inserted)
            """;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What the baseline did; {@code forwarded} counts distinct audit ids on the output queue. */
    record Result(int envelopes, double seconds, ProcessProbe.CpuUse cpu, long forwarded, List<String> problems) {

        double envelopesPerSecond() {
            return envelopes / seconds;
        }
    }

    private final EnvelopeReader reader = new EnvelopeReader(new Limits(1_048_576, 64));

    private CamelBaseline() {
    }

    static Result run(BenchEnvelopes workload, int count, BenchDatabase database, Path work, Duration drainTimeout,
            Bench.Log log) throws Exception {
        return new CamelBaseline().drain(workload, count, database, work, drainTimeout, log);
    }

    private Result drain(BenchEnvelopes workload, int count, BenchDatabase database, Path work, Duration drainTimeout,
            Bench.Log log) throws Exception {
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ().setConfiguration(brokerConfiguration(work.resolve("baseline-artemis")));
        broker.start();
        try (HikariDataSource dataSource = dataSource(database);
                Connection sql = database.connect()) {
            JmsClient jms = new JmsClient("vm://0");
            // the same envelopes, in the same order, as the service's JMS backlog
            Bench.queueJms(jms, INPUT_QUEUE, workload, Bench.JMS_STREAM, count, envelope -> { });
            log.line("baseline: %,d messages queued on the embedded broker; starting the route", count);

            CamelContext camel = new DefaultCamelContext();
            camel.getRegistry().bind("dataSource", dataSource);
            // the plain connection factory, as in the Camel examples (a Spring CachingConnectionFactory around it
            // was slower here: 169 against 249 messages/s on 3,000)
            camel.addComponent("jms", JmsComponent.jmsComponentAutoAcknowledge(new ActiveMQConnectionFactory("vm://0")));
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("jms:queue:" + INPUT_QUEUE).routeId(ROUTE_ID).autoStartup(false)
                            .process(CamelBaseline.this::prepareInsert)
                            .to("jdbc:dataSource?useHeadersAsParameters=true")
                            .process(CamelBaseline::effectiveResult)
                            .to("jms:queue:" + OUTPUT_QUEUE);
                }
            });
            camel.start();
            try {
                ProcessProbe.CpuWindow window = ProcessProbe.CpuWindow.start(ProcessHandle.current().pid());
                long started = System.nanoTime();
                camel.getRouteController().startRoute(ROUTE_ID);
                await("baseline drain").atMost(drainTimeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                        .until(() -> BenchDatabase.auditAndDeadLetters(sql)[0] >= count);
                Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
                ProcessProbe.CpuUse cpu = window.end(elapsed);
                camel.getRouteController().stopRoute(ROUTE_ID);
                List<JmsClient.Received> out = jms.drain(OUTPUT_QUEUE, Duration.ofSeconds(3), count * 2, Duration.ofMinutes(10));
                Set<Long> auditIds = new HashSet<>();
                out.forEach(message -> auditIds.add(Bench.auditIdOf(message.body())));
                List<String> problems = auditIds.size() == count ? List.of()
                        : List.of("baseline: " + auditIds.size() + " of " + count + " results on " + OUTPUT_QUEUE);
                return new Result(count, elapsed.toNanos() / 1e9, cpu, auditIds.size(), problems);
            } finally {
                camel.close();
            }
        } finally {
            broker.stop();
        }
    }

    /** Read, project and guard the message; then the statement's parameters, as the service filled them. */
    private void prepareInsert(Exchange exchange) throws Exception {
        byte[] payload = exchange.getIn().getBody(String.class).getBytes(StandardCharsets.UTF_8);
        ReceivedInput input = new ReceivedInput(ReceivedInput.Source.JMS, exchange.getIn().getHeader("JMSMessageID", String.class),
                OffsetDateTime.now(), payload, null, null);
        Verification verification = Verification.of(reader.read(payload));
        AuditRecord record = AuditRecord.of(input, verification);
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("request_id", record.requestId());
        parameters.put("source", record.source());
        parameters.put("source_ref", record.sourceRef());
        parameters.put("received_at", record.receivedAt());
        parameters.put("model_verdict", record.modelVerdict());
        parameters.put("effective_verdict", record.effectiveVerdict());
        parameters.put("downgraded", record.downgraded());
        parameters.put("guard_reasons", JSON.writeValueAsString(record.guardReasons()));
        parameters.put("projection_mode", record.projectionMode());
        parameters.put("groundedness_score", record.groundednessScore());
        parameters.put("critical_fact_count", record.criticalFactCount());
        parameters.put("input_sha256", record.inputSha256());
        parameters.put("envelope", record.envelopeJson());
        parameters.put("effective_result", record.effectiveResultJson());
        parameters.put("claims", JSON.writeValueAsString(claimRows(record.claims())));
        exchange.setProperty(VERIFICATION, verification);
        exchange.getIn().setHeader(JdbcConstants.JDBC_PARAMETERS, parameters);
        exchange.getIn().setBody(INSERT_VERIFICATION);
    }

    /** The claim_check rows as a JSON array, one object per claim with the columns' names, as the statement reads them. */
    private static ArrayNode claimRows(List<ProjectedClaim> claims) {
        ArrayNode rows = JsonNodeFactory.instance.arrayNode(claims.size());
        for (ProjectedClaim claim : claims) {
            rows.addObject()
                    .put("ordinal", claim.ordinal())
                    .put("claim_id", claim.claimId())
                    .put("claim_text", claim.claimText())
                    .put("claim_type", claim.claimType())
                    .put("verification", claim.verification())
                    .put("legacy_verification", claim.legacyVerification().label())
                    .put("is_critical", claim.critical())
                    .put("detail", claim.detail())
                    .set("evidence_refs", claim.evidenceRefs());
        }
        return rows;
    }

    /** The statement returned the audit id: the effective result with it is what goes out. */
    private static void effectiveResult(Exchange exchange) {
        List<?> rows = exchange.getIn().getBody(List.class);
        if (rows == null || rows.isEmpty()) {
            throw new IllegalStateException("the insert returned no audit id");
        }
        long auditId = ((Number) ((Map<?, ?>) rows.get(0)).get("audit_id")).longValue();
        exchange.getIn().removeHeader(JdbcConstants.JDBC_PARAMETERS);
        exchange.getIn().setBody(EffectiveResult.toJson(exchange.getProperty(VERIFICATION, Verification.class), auditId));
    }

    /** A persistent embedded broker with its journal in {@code journal} and an in-VM acceptor at {@code vm://0}. */
    static Configuration brokerConfiguration(Path journal) throws Exception {
        Files.createDirectories(journal);
        Configuration configuration = new ConfigurationImpl()
                .setPersistenceEnabled(true)
                .setSecurityEnabled(false)
                .setJournalDirectory(journal.resolve("journal").toString())
                .setBindingsDirectory(journal.resolve("bindings").toString())
                .setLargeMessagesDirectory(journal.resolve("large-messages").toString())
                .setPagingDirectory(journal.resolve("paging").toString());
        configuration.addAcceptorConfiguration("in-vm", "vm://0");
        return configuration;
    }

    private static HikariDataSource dataSource(BenchDatabase database) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(database.jdbcUrl());
        dataSource.setUsername(database.database().username());
        dataSource.setPassword(database.database().password());
        // one consumer needs one connection
        dataSource.setMaximumPoolSize(2);
        return dataSource;
    }
}
