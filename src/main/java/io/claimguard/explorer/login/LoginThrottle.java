package io.claimguard.explorer.login;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts failed logins on the management port by three keys (a name from an address, an address, a name) and refuses,
 * before any password is checked, an attempt whose key is throttled ({@link FailedLogins} has the rules). The keys live
 * in bounded tables (Caffeine: at most {@code max-tracked} of each kind, each forgotten once its failures left the
 * window and its wait ended). A flood of more new keys than a table holds pushes out the least used ones (Caffeine's
 * frequency-aware eviction), whose counting then starts again: the memory stays bounded, and the flood costs its
 * sender {@code max-tracked} failed logins, each a password check, from many addresses (one address is throttled after
 * {@code max-failures-per-address}). Every change of the three keys happens under one lock, so that an attempt sees and
 * counts all three at once; no password is checked under it.
 *
 * <p>Counted: {@code claimguard_login_failures_total} ({@code method}: {@code form}, {@code basic}) and
 * {@code claimguard_login_throttled_total} ({@code method}, and {@code limit}: {@code name_and_address},
 * {@code address}, {@code name}). Logged: one WARN line when a key's failures first throttle it (one a burst, not one
 * an attempt), with the name and the address, never a password.
 */
public final class LoginThrottle {

    private static final Logger LOG = LoggerFactory.getLogger(LoginThrottle.class);

    /** Names are counted by their first characters: longer ones log nobody in, and may not fill memory. */
    static final int NAME_KEY_LENGTH = 128;
    private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+(%.*)?");

    /** How a login came: the explorer's form or HTTP Basic on the actuator. */
    public enum Method {
        FORM, BASIC;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The keys failures are counted by, each with its limit and its table. */
    enum Kind {
        NAME_FROM_ADDRESS("name_and_address"), ADDRESS("address"), NAME("name");

        final String tag;

        Kind(String tag) {
            this.tag = tag;
        }
    }

    /** One attempt being checked: its keys, for {@link #end}. */
    record Attempt(Method method, String name, String address, Map<Kind, String> keys) {
    }

    private final Clock clock;
    private final Map<Kind, FailedLogins.Limit> limits = new EnumMap<>(Kind.class);
    private final Map<Kind, Cache<String, FailedLogins>> tables = new EnumMap<>(Kind.class);
    private final Map<Method, Counter> failures = new EnumMap<>(Method.class);
    private final Map<Method, Map<Kind, Counter>> throttled = new EnumMap<>(Method.class);

    public LoginThrottle(LoginThrottleProperties settings, MeterRegistry registry, Clock clock) {
        this.clock = clock;
        limits.put(Kind.NAME_FROM_ADDRESS, settings.perNameFromAddress());
        limits.put(Kind.ADDRESS, settings.perAddress());
        limits.put(Kind.NAME, settings.perName());
        for (Kind kind : Kind.values()) {
            FailedLogins.Limit limit = limits.get(kind);
            tables.put(kind, Caffeine.newBuilder()
                    .maximumSize(settings.maxTracked())
                    .expireAfter(Expiry.writing((String key, FailedLogins logins) ->
                            Duration.ofMillis(logins.rememberMillis(clock.millis(), limit))))
                    // eviction and expiry on the caller's thread: no pool, and the bound holds when a call returns
                    .executor(Runnable::run)
                    .build());
        }
        for (Method method : Method.values()) {
            failures.put(method, Counter.builder("claimguard.login.failures")
                    .description("Logins on the management port refused for a wrong name or password")
                    .tag("method", method.tag()).register(registry));
            Map<Kind, Counter> byLimit = new EnumMap<>(Kind.class);
            for (Kind kind : Kind.values()) {
                byLimit.put(kind, Counter.builder("claimguard.login.throttled")
                        .description("Logins refused unchecked because their name, address or both failed too often")
                        .tags("method", method.tag(), "limit", kind.tag).register(registry));
            }
            throttled.put(method, byLimit);
        }
    }

    /**
     * An attempt to log in as {@code name} from {@code address} is about to have its password checked.
     *
     * @throws LoginThrottledException when one of its keys is throttled: then nothing is checked, nor counted as a failure
     */
    Attempt begin(Method method, String name, String address) {
        Map<Kind, String> keys = keys(name, address);
        synchronized (this) {
            long now = clock.millis();
            for (Kind kind : Kind.values()) {
                long wait = logins(kind, keys.get(kind)).waitMillis(now, limits.get(kind));
                if (wait > 0) {
                    throttled.get(method).get(kind).increment();
                    throw new LoginThrottledException(Duration.ofMillis(wait));
                }
            }
            for (Kind kind : Kind.values()) {
                store(kind, keys.get(kind), logins(kind, keys.get(kind)).checkingOne(now, limits.get(kind)), now);
            }
        }
        return new Attempt(method, name, address, keys);
    }

    /** The attempt's password was checked: it logged in, or it failed (and counts). */
    void end(Attempt attempt, boolean loggedIn) {
        List<String> warnings = new ArrayList<>();
        synchronized (this) {
            long now = clock.millis();
            for (Kind kind : Kind.values()) {
                String key = attempt.keys().get(kind);
                FailedLogins.Limit limit = limits.get(kind);
                FailedLogins before = logins(kind, key).at(now, limit);
                FailedLogins after = loggedIn ? before.succeeded(now, limit, kind != Kind.ADDRESS) : before.failed(now, limit);
                if (before.throttles() == 0 && after.throttles() > 0) {
                    warnings.add(burst(kind, attempt, limit, after.throttledUntil() - now));
                }
                store(kind, key, after, now);
            }
        }
        if (!loggedIn) {
            failures.get(attempt.method()).increment();
        }
        // one message template for every burst: the names in it come from input, and the log's rate bound counts by template
        warnings.forEach(warning -> LOG.warn("{}", warning));
    }

    /** Keys remembered now, of every kind: never more than {@code max-tracked} of each. */
    long tracked() {
        return tables.values().stream().mapToLong(table -> {
            table.cleanUp();
            return table.estimatedSize();
        }).sum();
    }

    private FailedLogins logins(Kind kind, String key) {
        FailedLogins logins = tables.get(kind).getIfPresent(key);
        return logins == null ? FailedLogins.NONE : logins;
    }

    private void store(Kind kind, String key, FailedLogins logins, long now) {
        if (logins.forgotten(now, limits.get(kind))) {
            tables.get(kind).invalidate(key);
        } else {
            tables.get(kind).put(key, logins);
        }
    }

    private static String burst(Kind kind, Attempt attempt, FailedLogins.Limit limit, long waitMillis) {
        String name = printable(attempt.name());
        String address = printable(attempt.address());
        String failed = switch (kind) {
            case NAME_FROM_ADDRESS -> "name '" + name + "' failed to log in from " + address;
            case ADDRESS -> "logins from " + address + " failed (the last as '" + name + "')";
            case NAME -> "name '" + name + "' failed to log in from several addresses (the last " + address + ")";
        };
        String refused = switch (kind) {
            case NAME_FROM_ADDRESS -> "its next attempts from there";
            case ADDRESS -> "all logins from there";
            case NAME -> "its logins from everywhere";
        };
        return "Login throttled: " + failed + " " + limit.maxFailures() + " times within " + shown(limit.window())
                + "; " + refused + " are refused unchecked for " + shown(Duration.ofMillis(waitMillis))
                + ", the wait doubling with each further failure up to " + shown(limit.maxDelay());
    }

    /** A duration as the settings write it: 1h, 10m, 30s, 1500ms. */
    private static String shown(Duration duration) {
        if (duration.toMillis() % 3_600_000 == 0) {
            return duration.toHours() + "h";
        }
        if (duration.toMillis() % 60_000 == 0) {
            return duration.toMinutes() + "m";
        }
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }

    /** The three keys of an attempt; names without case, as the operators' table compares them. */
    static Map<Kind, String> keys(String name, String address) {
        String nameKey = name == null ? "" : name.toLowerCase(Locale.ROOT);
        nameKey = nameKey.length() > NAME_KEY_LENGTH ? nameKey.substring(0, NAME_KEY_LENGTH) : nameKey;
        String addressKey = addressKey(address);
        Map<Kind, String> keys = new EnumMap<>(Kind.class);
        keys.put(Kind.NAME_FROM_ADDRESS, addressKey + " " + nameKey);
        keys.put(Kind.ADDRESS, addressKey);
        keys.put(Kind.NAME, nameKey);
        return keys;
    }

    /**
     * The address an attempt is counted by: an IPv4 address as it is; an IPv6 address by its /64 network, since one
     * subscriber (and one attacker) commonly holds every address of one.
     */
    static String addressKey(String address) {
        if (address == null || address.isBlank()) {
            return "unknown";
        }
        if (address.indexOf(':') < 0 || !IPV6_LITERAL.matcher(address).matches()) {
            return address.length() > 64 ? address.substring(0, 64) : address;
        }
        try {
            // a literal: parsed, never looked up
            InetAddress parsed = InetAddress.getByName(address.replaceFirst("%.*$", ""));
            byte[] bytes = parsed.getAddress();
            if (bytes.length == 4) {
                return parsed.getHostAddress();
            }
            return String.format("%x:%x:%x:%x::/64", word(bytes, 0), word(bytes, 2), word(bytes, 4), word(bytes, 6));
        } catch (UnknownHostException notAnAddress) {
            return address.length() > 64 ? address.substring(0, 64) : address;
        }
    }

    private static int word(byte[] bytes, int offset) {
        return ((bytes[offset] & 0xff) << 8) | (bytes[offset + 1] & 0xff);
    }

    /** A name or address as it may go into a log line: no control or direction characters, at most 64 characters. */
    static String printable(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder shown = new StringBuilder();
        text.codePoints().limit(64).forEach(c -> shown.appendCodePoint(
                Character.isISOControl(c) || Character.getType(c) == Character.FORMAT ? '?' : c));
        return text.codePointCount(0, text.length()) > 64 ? shown + "..." : shown.toString();
    }
}
