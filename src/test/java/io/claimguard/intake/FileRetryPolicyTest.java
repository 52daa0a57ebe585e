package io.claimguard.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.support.Backoff;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import org.apache.activemq.artemis.api.core.ActiveMQNotConnectedException;
import org.apache.activemq.artemis.api.core.ActiveMQSecurityException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jms.UncategorizedJmsException;

class FileRetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    private static final int ATTEMPTS = 4;

    private final FileRetryPolicy policy = new FileRetryPolicy(ATTEMPTS,
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(300)));
    private final InboxFile file = new InboxFile(Path.of("x.json"), "x.json",
            new InboxFile.Key(Path.of("x.json"), null, 2, FileTime.from(NOW)), new FileAttempts());

    @Test
    @DisplayName("Scenario: A failing file's wait doubles from the first delay up to the maximum")
    void aFailingFilesWaitDoubles() {
        Instant at = NOW;
        long[] waits = {100, 200, 300};
        for (int failure = 1; failure < ATTEMPTS; failure++) {
            policy.failed(file, new IOException("outbox full"), at);
            Instant due = at.plusMillis(waits[failure - 1]);
            assertThat(file.attempts().dueBy(due.minusMillis(1))).as("failure %d", failure).isFalse();
            assertThat(file.attempts().dueBy(due)).as("failure %d", failure).isTrue();
            assertThat(policy.exhausted(file.attempts())).isFalse();
            at = due;
        }
        policy.failed(file, new IOException("outbox still full"), at);
        assertThat(file.attempts().dueBy(at)).as("due at once, to be set aside").isTrue();
        assertThat(policy.exhausted(file.attempts())).isTrue();
        assertThat(policy.reason(file.attempts())).isEqualTo("processing failed after 4 attempts: IOException: outbox still full");

        // setting it aside failed too: it waits again, and its reason stays the last attempt's
        policy.failed(file, new IOException("cannot move"), at);
        assertThat(file.attempts().dueBy(at.plusMillis(299))).isFalse();
        assertThat(policy.reason(file.attempts())).isEqualTo("processing failed after 4 attempts: IOException: outbox still full");
    }

    @Test
    @DisplayName("Scenario: A failure while the database is unreachable does not count as an attempt")
    void anOutageDoesNotCount() {
        for (int i = 0; i < 2 * ATTEMPTS; i++) {
            policy.failed(file, new RuntimeException(new SQLTransientConnectionException("refused", "08001")), NOW);
        }
        assertThat(file.attempts().failures()).isZero();
        assertThat(policy.exhausted(file.attempts())).isFalse();
        assertThat(file.attempts().dueBy(NOW.plusMillis(99))).isFalse();
        assertThat(file.attempts().dueBy(NOW.plusMillis(100))).isTrue();
    }

    @Test
    @DisplayName("Scenario: A failure while the broker is unreachable does not count as an attempt")
    void aBrokerOutageDoesNotCount() {
        JMSException notConnected = new JMSException("cannot send the results");
        notConnected.initCause(new ActiveMQNotConnectedException("AMQ219007: Cannot connect to server(s)"));
        for (int i = 0; i < 2 * ATTEMPTS; i++) {
            policy.failed(file, new UncategorizedJmsException(notConnected), NOW);
        }
        assertThat(file.attempts().failures()).isZero();
        assertThat(file.attempts().dueBy(NOW.plusMillis(99))).isFalse();
        assertThat(file.attempts().dueBy(NOW.plusMillis(100))).isTrue();

        JMSSecurityException refused = new JMSSecurityException("AMQ229032: User: producer does not have permission='SEND'");
        refused.initCause(new ActiveMQSecurityException("AMQ229032"));
        policy.failed(file, new UncategorizedJmsException(refused), NOW);
        assertThat(file.attempts().failures()).as("a refusal of the broker's own counts").isEqualTo(1);
    }
}
