package io.claimguard.intake;

import io.claimguard.config.ClaimGuardProperties;
import java.util.concurrent.TimeUnit;
import org.apache.camel.component.file.cluster.FileLockClusterService;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With a shared inbox ({@code claimguard.file.shared=true}), one instance at a time takes its files: Camel's
 * file-lock cluster service elects it by a lock file in {@code <inbox>/.claimguard-leader}, on the same volume as the
 * files, and {@link FileIntakeRoute} runs only while its instance leads. A leader that dies releases the lock with
 * its process; another instance takes over and finds the files the dead one had not finished still in the inbox.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "claimguard.file.shared", havingValue = "true")
public class InboxLeaderElection {

    /** The namespace the file intake's route policy and the lock file share. */
    static final String NAMESPACE = "claimguard-inbox";
    /** A leader that has not renewed its claim for this many check intervals is taken over. */
    private static final int STALE_AFTER_INTERVALS = 3;

    @Bean
    FileLockClusterService inboxLeader(ClaimGuardProperties properties) {
        FileLockClusterService service = new FileLockClusterService();
        service.setId("claimguard-inbox-leader");
        service.setRoot(properties.file().inbox().resolve(".claimguard-leader").toAbsolutePath().toString());
        service.setAcquireLockDelay(1, TimeUnit.SECONDS);
        service.setAcquireLockInterval(properties.file().leaderCheckInterval().toMillis(), TimeUnit.MILLISECONDS);
        service.setHeartbeatTimeoutMultiplier(STALE_AFTER_INTERVALS);
        return service;
    }
}
