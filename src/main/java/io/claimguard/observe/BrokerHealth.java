package io.claimguard.observe;

import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jms.health.JmsHealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The broker's part of health ({@code jms}, in readiness): Spring Boot's own JMS check, given at most
 * {@link #PATIENCE} to answer. While the broker is away, opening a connection can take from seconds to half a minute
 * (the client's connect attempts), and an orchestrator's probe must not wait for that: the check then says DOWN at
 * once. Replaces Boot's {@code jmsHealthContributor}, which backs off for a bean of that name.
 */
@Component("jmsHealthContributor")
public class BrokerHealth implements HealthIndicator, DisposableBean {

    static final Duration PATIENCE = Duration.ofMillis(800);

    private final JmsHealthIndicator check;
    private final ExecutorService checks = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "broker-health");
        thread.setDaemon(true);
        return thread;
    });

    public BrokerHealth(ConnectionFactory connectionFactory) {
        this.check = new JmsHealthIndicator(connectionFactory);
    }

    @Override
    public Health health() {
        Future<Health> answer = checks.submit(() -> check.health());
        try {
            return answer.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            return Health.down().withDetail("error", "the broker did not answer within " + PATIENCE.toMillis() + " ms").build();
        } catch (ExecutionException e) {
            return Health.down(e.getCause()).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.down(e).build();
        }
    }

    @Override
    public void destroy() {
        checks.shutdownNow();
    }
}
