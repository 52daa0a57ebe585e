package io.claimguard;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** ClaimGuard: guards verifier verdicts, projects the legacy facts list, audits and forwards every result. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ClaimGuardApplication {

    public static void main(String[] args) {
        SpringApplication.run(ClaimGuardApplication.class, args);
    }
}
