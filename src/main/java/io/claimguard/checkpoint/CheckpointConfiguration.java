package io.claimguard.checkpoint;

import io.claimguard.config.ClaimGuardProperties;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Signed checkpoints, on when {@code claimguard.checkpoint.private-key} names a key file. A key file or directory
 * that cannot be used stops the service at start, with the file and the reason.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${claimguard.checkpoint.private-key:}'.isBlank()")
class CheckpointConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointConfiguration.class);

    @Bean
    CheckpointWriter checkpointWriter(DataSource dataSource, ClaimGuardProperties properties,
            @Value("${spring.datasource.url}") String databaseUrl) throws IOException {
        ClaimGuardProperties.Checkpoint settings = properties.checkpoint();
        Ed25519Keys.SigningKey key = Ed25519Keys.readSigningKey(Path.of(settings.privateKey().strip()));
        CheckpointLog log = DirectoryCheckpointLog.create(settings.directory());
        String origin = CheckpointOrigin.of(settings.origin(), databaseUrl);
        LOG.info("signing checkpoints of the audit chain as {} into {} every {} and at shutdown; verifier key {}", origin,
                log.describe(), settings.period(), Ed25519Keys.verifierKey(origin, key.publicKey()));
        return new CheckpointWriter(dataSource, log, key, origin, settings.period(), Clock.systemUTC());
    }
}
