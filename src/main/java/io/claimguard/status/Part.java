package io.claimguard.status;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One part of the status (the database's facts, the inbox, the queues): its facts, or why they could not be had. A
 * part that cannot be reached does not keep the others from being shown.
 *
 * @param facts what was found; null when unavailable
 * @param unavailable why the part could not be read; null when available
 */
public record Part<T>(T facts, String unavailable) {

    public Part {
        if ((facts == null) == (unavailable == null)) {
            throw new IllegalArgumentException("a part has either facts or the reason it has none");
        }
    }

    public static <T> Part<T> of(T facts) {
        return new Part<>(Objects.requireNonNull(facts), null);
    }

    public static <T> Part<T> unavailable(String reason) {
        return new Part<>(null, Objects.requireNonNull(reason));
    }

    public boolean available() {
        return facts != null;
    }

    /** The facts' text, or "unavailable: reason". */
    String describe(Function<T, String> text) {
        return available() ? text.apply(facts) : "unavailable: " + unavailable;
    }

    /** {@code available}, then the facts' fields, or the {@code reason}. */
    void putInto(Map<String, Object> json, Function<T, Map<String, Object>> fields) {
        json.put("available", available());
        if (available()) {
            json.putAll(fields.apply(facts));
        } else {
            json.put("reason", unavailable);
        }
    }
}
