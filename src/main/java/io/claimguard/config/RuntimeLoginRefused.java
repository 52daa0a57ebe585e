package io.claimguard.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The service will not run on the login it was given, or cannot run on its runtime login: one line that says why and
 * names the settings that change it. Spring Boot reports it through {@link Analyzer} as the description of its failed
 * start, without a stack trace.
 */
public class RuntimeLoginRefused extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    RuntimeLoginRefused(String line) {
        super(line.replaceAll("\\s*\\R\\s*", " "));
    }

    /** Registered in {@code META-INF/spring.factories}: the refusal's line is the whole report. */
    public static final class Analyzer extends AbstractFailureAnalyzer<RuntimeLoginRefused> {

        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, RuntimeLoginRefused cause) {
            return new FailureAnalysis(cause.getMessage(), null, cause);
        }
    }
}
