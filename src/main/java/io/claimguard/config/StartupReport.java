package io.claimguard.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Says once, at start-up, where ClaimGuard reads and writes, so that an operator never has to guess. */
@Component
class StartupReport {

    private static final Logger LOG = LoggerFactory.getLogger(StartupReport.class);

    private final ClaimGuardProperties properties;
    private final Environment environment;
    private final RuntimeLogin login;

    StartupReport(ClaimGuardProperties properties, Environment environment, RuntimeLogin login) {
        this.properties = properties;
        this.environment = environment;
        this.login = login;
    }

    @EventListener(ApplicationReadyEvent.class)
    void report() {
        String mode = environment.getProperty("spring.artemis.mode", "embedded");
        String broker = "embedded".equals(mode)
                ? "embedded Artemis, journal " + properties.broker().dataDirectory().toAbsolutePath()
                        + ", producers connect to " + blankAsNone(properties.broker().acceptorUrl())
                : "external Artemis at " + environment.getProperty("spring.artemis.broker-url");
        LOG.info("ClaimGuard {} reads files from {} (*.json; done -> .done/, rejected -> .error/) and JMS queue {}",
                properties.instanceName(), properties.file().inbox().toAbsolutePath(), properties.jms().inputQueue());
        LOG.info("ClaimGuard writes results to JMS queue {} and, for files, {}; rejected messages to {}",
                properties.jms().outputQueue(), properties.file().outbox().toAbsolutePath(), properties.jms().deadLetterQueue());
        String role = properties.database().runtimeRole();
        LOG.info("ClaimGuard audits to {} (schema claimguard) as {}, acting as {}; migrations as {}; broker: {}",
                environment.getProperty("spring.datasource.url"), login.describe(),
                role == null || role.isBlank() ? "itself (no runtime role)" : role,
                environment.getProperty("spring.flyway.user"), broker);
    }

    private static String blankAsNone(String url) {
        return url == null || url.isBlank() ? "(no network acceptor)" : url;
    }
}
