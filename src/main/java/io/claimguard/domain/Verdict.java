package io.claimguard.domain;

import java.util.Optional;

/** The three verdicts, declared from most to least permissive: PASS &gt; LOW_CONFID &gt; REJECT. */
public enum Verdict {
    PASS,
    LOW_CONFID,
    REJECT;

    /** The stricter of two verdicts; the guard only ever moves a verdict this way. */
    public Verdict strictest(Verdict other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    public boolean isStricterThan(Verdict other) {
        return ordinal() > other.ordinal();
    }

    /** Parses a verdict ignoring ASCII case only, so that look-alike letters such as U+017F never match. */
    public static Optional<Verdict> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (Verdict verdict : values()) {
            if (Ascii.equalsIgnoreCase(verdict.name(), text)) {
                return Optional.of(verdict);
            }
        }
        return Optional.empty();
    }
}
