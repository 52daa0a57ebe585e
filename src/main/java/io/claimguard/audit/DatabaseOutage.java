package io.claimguard.audit;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;

/**
 * Tells a database that is unreachable or briefly unable to serve (the input must wait and be retried
 * without end) from an input the database refuses (retried a few times, then dead-lettered).
 */
public final class DatabaseOutage implements Predicate {

    @Override
    public boolean matches(Exchange exchange) {
        Throwable failure = exchange.getException();
        return isOutage(failure != null ? failure : exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class));
    }

    public static boolean isOutage(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLTransientException || cause instanceof SQLRecoverableException) {
                return true;
            }
            if (cause instanceof SQLException sql && isOutageState(sql.getSQLState())) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /**
     * SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P (server shutting down or starting),
     * 58 (system I/O) and the retryable transaction conflicts 40001 and 40P01.
     */
    private static boolean isOutageState(String state) {
        return state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57P")
                || state.startsWith("58") || state.equals("40001") || state.equals("40P01"));
    }
}
