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
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
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

    private final DataSource dataSource;
    private final GroupCommit<AuditRecord, AuditBatchStatement.Outcome> groupCommit;

    public AuditWriter(DataSource dataSource, ClaimGuardProperties properties, MeterRegistry registry) {
        this.dataSource = dataSource;
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
        if (outcome.created() && record.redriveOf() != null && outcome.redriveOf() == null) {
            Redrive.warnNamesNoDeadLetter(LOG, "audit_id " + outcome.auditId() + " (" + record.source() + " input "
                    + LogValue.of(record.sourceRef()) + ")", record.redriveOf());
        }
        InputExchange.audited(exchange, outcome.auditId(), outcome.created());
        exchange.getIn().setBody(EffectiveResult.withAuditId(record.forwardedResultJson(), outcome.auditId()));
    }

    /** The whole batch in one transaction: its keys, audit rows, claim checks and findings ({@link AuditSql}). */
    private List<AuditBatchStatement.Outcome> write(List<AuditRecord> records) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                List<AuditBatchStatement.Outcome> outcomes = AuditBatchStatement.write(connection, records);
                connection.commit();
                return outcomes;
            } catch (Exception | Error failure) {
                try {
                    connection.rollback();
                } catch (SQLException rollbackFailure) {
                    failure.addSuppressed(rollbackFailure);
                }
                throw failure;
            }
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        groupCommit.close();
    }
}
