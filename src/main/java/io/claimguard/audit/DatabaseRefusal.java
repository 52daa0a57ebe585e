package io.claimguard.audit;

import java.sql.SQLException;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;

/**
 * Tells an input PostgreSQL refuses as data (SQLSTATE class 22, data exception, such as U+0000 in text or a
 * number beyond {@code numeric}; or 23, integrity violation) from other failures: retrying it cannot succeed.
 */
public final class DatabaseRefusal implements Predicate {

    @Override
    public boolean matches(Exchange exchange) {
        Throwable failure = exchange.getException();
        return isRefusal(failure != null ? failure : exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class));
    }

    public static boolean isRefusal(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23"))) {
                return true;
            }
        }
        return false;
    }
}
