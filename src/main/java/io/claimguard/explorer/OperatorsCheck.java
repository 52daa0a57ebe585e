package io.claimguard.explorer;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Checks {@code claimguard.explorer.users} before the application context is refreshed: before any bean, so before the
 * broker, the database pool, the migrations, the routes or the web server start. A service that nobody could log in to
 * (or whose password entries could never match) stops at once, with {@link OperatorsFailureAnalyzer}'s report of the
 * one line {@link Operators#problem} says, instead of after the broker and the routes started and stopped again,
 * inside a stack trace. Registered in {@code META-INF/spring.factories}.
 */
public class OperatorsCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ExplorerProperties explorer = Binder.get(context.getEnvironment())
                .bindOrCreate("claimguard.explorer", Bindable.of(ExplorerProperties.class));
        Operators.problem(explorer).ifPresent(problem -> {
            throw new InvalidOperatorsException(problem);
        });
    }
}
