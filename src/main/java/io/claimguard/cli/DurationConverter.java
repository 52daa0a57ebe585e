package io.claimguard.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A duration as people write it: {@code 500ms}, {@code 15s}, {@code 2m}, or ISO-8601 ({@code PT15S}). */
final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m)");

    @Override
    public Duration convert(String value) {
        Matcher match = SHORT.matcher(value.strip());
        if (match.matches()) {
            long amount = Long.parseLong(match.group(1));
            return switch (match.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
        try {
            return Duration.parse(value.strip());
        } catch (RuntimeException e) {
            throw new TypeConversionException("'" + value + "' is not a duration (e.g. 15s, 2m, 500ms, PT15S)");
        }
    }
}
