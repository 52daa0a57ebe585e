package io.claimguard.explorer;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports {@link InvalidOperatorsException} as Spring Boot reports a start that failed for its configuration: the one
 * line that names the setting and what is wrong with it, then what to do, without a stack trace. Registered in {@code META-INF/spring.factories}.
 */
public class OperatorsFailureAnalyzer extends AbstractFailureAnalyzer<InvalidOperatorsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidOperatorsException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Give every operator a name and a password hash from 'claimguard hash-password' (docs/investigating.md, "
                        + "\"Audit explorer\"), or switch the explorer off (claimguard.explorer.enabled=false).",
                cause);
    }
}
