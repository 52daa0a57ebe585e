package io.claimguard.observe;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Installs the {@link RepeatedLinesFilter} into logback once the service's settings are known: Spring Boot sets logback
 * up (and resets it, removing filters) before any bean, so a bean is the first point where the bound can read
 * {@code claimguard.logging.max-repeats-per-minute}.
 */
@Configuration(proxyBeanMethods = false)
class RepeatedLinesConfiguration {

    @Bean
    RepeatedLinesFilter repeatedLinesFilter(@Value("${claimguard.logging.max-repeats-per-minute}") int maxRepeats) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        for (TurboFilter installed : context.getTurboFilterList()) {
            if (installed instanceof RepeatedLinesFilter filter) {
                filter.setMaxRepeats(maxRepeats);
                return filter;
            }
        }
        RepeatedLinesFilter filter = new RepeatedLinesFilter();
        filter.setMaxRepeats(maxRepeats);
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
        return filter;
    }
}
