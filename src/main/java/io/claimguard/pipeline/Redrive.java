package io.claimguard.pipeline;

import io.claimguard.support.LogValue;
import org.slf4j.Logger;

/**
 * How a re-driven input names the dead letter it came from: the JMS property {@link #PROPERTY}, set by
 * {@code claimguard redrive} and read by the JMS intake. A value that names no dead letter never fails the input: it
 * is processed as any other, its rows with {@code redrive_of} null.
 */
public final class Redrive {

    /** The JMS property carrying the {@code claimguard.dead_letter} id a re-driven input was read from. */
    public static final String PROPERTY = "ClaimGuardRedriveOf";

    private Redrive() {
    }

    /**
     * What a property value says.
     *
     * @param deadLetterId the dead letter's id; null when there is no property or its value is not one
     * @param problem why a value present is not taken as a dead letter's id; null otherwise
     */
    public record Link(Long deadLetterId, String problem) {

        /** No property: an input like any other. */
        public static final Link NONE = new Link(null, null);
    }

    /**
     * Says that a re-drive named no dead letter, so that the row written for it keeps no link.
     *
     * @param log the logger of the step that wrote the row
     * @param row the row and the input it was written for, as the line starts
     * @param redriveOf the id the input named
     */
    public static void warnNamesNoDeadLetter(Logger log, String row, Long redriveOf) {
        log.warn("{}: {} {} names no dead letter; its row records no re-drive", row, PROPERTY, LogValue.of(redriveOf));
    }

    /** Reads a property value as the JMS client gives it: a number, or a text holding a positive whole number. */
    public static Link parse(Object value) {
        if (value == null) {
            return Link.NONE;
        }
        String text = value.toString().strip();
        try {
            long id = value instanceof Number number && !(value instanceof Double || value instanceof Float)
                    ? number.longValue() : Long.parseLong(text);
            return id > 0 ? new Link(id, null) : new Link(null, PROPERTY + " " + id + " is not a dead letter's id");
        } catch (NumberFormatException e) {
            return new Link(null, PROPERTY + " '" + text + "' is not a dead letter's id (a positive whole number)");
        }
    }
}
