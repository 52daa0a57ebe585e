package io.claimguard.audit;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.InputExchange;
import io.claimguard.pipeline.Redrive;
import io.claimguard.support.Failures;
import io.claimguard.support.GroupCommit;
import io.claimguard.support.LogValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLTransientException;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.jdbc.JdbcConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Commits accepted inputs' audit rows in batches. Each input's exchange waits in {@link #audit} until the batch
 * holding it is committed, so that nothing downstream (forwarding, the JMS commit, the file move) happens before
 * its rows are in the database: concurrent inputs share one database transaction, and each keeps its own
 * acknowledgement. See {@link GroupCommit} for how a batch is formed and how a failing one is split.
 */
@Component
public class AuditWriter implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(AuditWriter.class);

    private final ProducerTemplate producer;
    private final GroupCommit<AuditRecord, AuditBatchStatement.Outcome> groupCommit;

    public AuditWriter(ProducerTemplate producer, ClaimGuardProperties properties, MeterRegistry registry) {
        this.producer = producer;
        DistributionSummary batchSizes = DistributionSummary.builder("claimguard.audit.batch.size")
                .description("Inputs whose audit rows were committed in one database transaction")
                .baseUnit("inputs")
                .register(registry);
        Counter splits = Counter.builder("claimguard.audit.batch.splits")
                .description("Batches that failed for one of their inputs and were written again in two halves")
                .register(registry);
        ClaimGuardProperties.Audit audit = properties.audit();
        this.groupCommit = new GroupCommit<>("audit", audit.writers(), audit.maxBatchSize(), this::write,
                Failures::isOutage, new GroupCommit.BatchListener() {
                    @Override
                    public void written(int size) {
                        batchSizes.record(size);
                    }

                    @Override
                    public void split(int size) {
                        splits.increment();
                    }
                });
        Gauge.builder("claimguard.audit.queued", groupCommit, GroupCommit::queued)
                .description("Inputs waiting for an audit writer")
                .register(registry);
    }

    /** Inputs waiting for an audit writer (not counting those in the batches being written). */
    public int queued() {
        return groupCommit.queued();
    }

    /** Commits the exchange's input's audit rows, then makes its effective result, with its audit id, the body. */
    public void audit(Exchange exchange) throws Exception {
        Verification verification = InputExchange.verification(exchange);
        AuditRecord record = AuditRecord.of(InputExchange.input(exchange), verification);
        AuditBatchStatement.Outcome outcome = groupCommit.submit(record);
        if (outcome.auditId() == null) {
            throw new ConcurrentDuplicateException();
        }
        if (outcome.created() && record.redriveOf() != null && outcome.redriveOf() == null) {
            Redrive.warnNamesNoDeadLetter(LOG, "audit_id " + outcome.auditId() + " (" + record.source() + " input "
                    + LogValue.of(record.sourceRef()) + ")", record.redriveOf());
        }
        InputExchange.audited(exchange, outcome.auditId(), outcome.created());
        exchange.getIn().setBody(EffectiveResult.withAuditId(record.forwardedResultJson(), outcome.auditId()));
    }

    /** One statement through camel-jdbc ({@link AuditRoute#WRITE_BATCH}) for the whole batch. */
    private List<AuditBatchStatement.Outcome> write(List<AuditRecord> records) {
        List<?> rows = producer.requestBodyAndHeader(AuditRoute.WRITE_BATCH, AuditSql.INSERT_VERIFICATIONS,
                JdbcConstants.JDBC_PARAMETERS, AuditBatchStatement.parameters(records), List.class);
        return AuditBatchStatement.outcomes(rows, records.size());
    }

    @Override
    public void destroy() throws InterruptedException {
        groupCommit.close();
    }

    /**
     * An identical input committed between the statement's snapshot and its insert: running it again sees that
     * row. An outage-class failure, so the input is simply retried.
     */
    static final class ConcurrentDuplicateException extends SQLTransientException {
        ConcurrentDuplicateException() {
            super("an identical input was committed concurrently; retrying to read its audit row");
        }
    }
}
