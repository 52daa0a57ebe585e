package io.claimguard.observe;

import io.claimguard.config.ClaimGuardProperties;
import io.claimguard.status.Inbox;
import io.claimguard.status.Part;
import io.claimguard.status.QueueDepth;
import io.claimguard.status.StatusReader;
import io.claimguard.status.StatusReport;
import io.claimguard.status.StatusReport.AuditFacts;
import io.claimguard.status.StatusReport.Queues;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/claimguard}: the same JSON as {@code claimguard status --json}, from the service's own database
 * connection, inbox and embedded broker. Like the command line, it checks the chain's head link only (constant
 * time) and reports the newest verify-chain run, so that it may be polled often.
 */
@Component
@Endpoint(id = "claimguard")
public class StatusEndpoint {

    private final DataSource dataSource;
    private final ClaimGuardProperties properties;
    private final EmbeddedQueueDepths queueDepths;

    public StatusEndpoint(DataSource dataSource, ClaimGuardProperties properties, EmbeddedQueueDepths queueDepths) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.queueDepths = queueDepths;
    }

    @ReadOperation
    public Map<String, Object> status() {
        return new StatusReport(Instant.now(), auditFacts(), Inbox.backlog(properties.file().inbox()), queues()).json();
    }

    private Part<AuditFacts> auditFacts() {
        try (Connection connection = dataSource.getConnection()) {
            return Part.of(StatusReader.read(connection));
        } catch (SQLException e) {
            return Part.unavailable("cannot read the audit database: " + e.getMessage());
        }
    }

    private Part<Queues> queues() {
        if (!queueDepths.available()) {
            return Part.unavailable("the broker is external (spring.artemis.mode=native): it reports its own queue depths");
        }
        ClaimGuardProperties.Jms jms = properties.jms();
        return Part.of(new Queues("embedded", List.of(
                new QueueDepth(QueueDepth.INPUT, jms.inputQueue(), queueDepths.depth(jms.inputQueue())),
                new QueueDepth(QueueDepth.OUTPUT, jms.outputQueue(), queueDepths.depth(jms.outputQueue())),
                new QueueDepth(QueueDepth.DEAD_LETTER, jms.deadLetterQueue(), queueDepths.depth(jms.deadLetterQueue())))));
    }
}
