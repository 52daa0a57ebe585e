package io.claimguard.support;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;

/**
 * What a failure means for the input: an unreachable database (the input waits and is retried without end), a
 * value the database refuses (retrying cannot succeed), or anything else (retried a few times).
 */
public final class Failures {

    /** The database is unreachable or briefly unable to serve. */
    public static final Predicate DATABASE_OUTAGE = exchange -> isOutage(failure(exchange));
    /** The database refuses the input as data. */
    public static final Predicate DATABASE_REFUSAL = exchange -> isRefusal(failure(exchange));

    private Failures() {
    }

    /**
     * SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P (server shutting down or starting), 58
     * (system I/O), the retryable transaction conflicts 40001 and 40P01, and the JDBC driver's transient and
     * recoverable exceptions.
     */
    public static boolean isOutage(Throwable failure) {
        for (Throwable cause : causes(failure)) {
            if (cause instanceof SQLTransientException || cause instanceof SQLRecoverableException) {
                return true;
            }
            String state = cause instanceof SQLException sql ? sql.getSQLState() : null;
            if (state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57P")
                    || state.startsWith("58") || state.equals("40001") || state.equals("40P01"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * SQLSTATE class 22 (data exception) or 23 (integrity violation, such as a CHECK constraint or trigger a DBA
     * added): the same input fails the same way every time.
     */
    public static boolean isRefusal(Throwable failure) {
        for (Throwable cause : causes(failure)) {
            String state = cause instanceof SQLException sql ? sql.getSQLState() : null;
            if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                return true;
            }
        }
        return false;
    }

    /** The failure and its root cause, by class and message: what an operator needs to see in one line. */
    public static String describe(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        List<Throwable> chain = causes(failure);
        Throwable root = chain.get(chain.size() - 1);
        String text = failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return root == failure ? text
                : text + " (caused by " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }

    /** The failure and its causes, outermost first; a cause that refers to itself or loops ends the chain. */
    public static List<Throwable> causes(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable cause = failure; cause != null && !chain.contains(cause); cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }

    /** The failure being handled: the exception while it is thrown, the caught one inside an error handler. */
    private static Throwable failure(Exchange exchange) {
        Throwable failure = exchange.getException();
        return failure != null ? failure : exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
    }
}
