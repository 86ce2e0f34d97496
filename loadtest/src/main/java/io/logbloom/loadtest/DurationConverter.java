package io.logbloom.loadtest;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations written like Loki's flags: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h30m}.
 *
 * <p>Thread-safe: stateless.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /** Parses a duration such as {@code 30s}; throws naming the value when it is malformed. */
    static Duration parse(String value) {
        Matcher matcher = PART.matcher(value.trim());
        long nanos = 0;
        int position = 0;
        while (matcher.find() && matcher.start() == position) {
            double amount = Double.parseDouble(matcher.group(1));
            long unitNanos = switch (matcher.group(2)) {
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos += Math.round(amount * unitNanos);
            position = matcher.end();
        }
        if (position == 0 || position != value.trim().length()) {
            throw new CommandLine.TypeConversionException(
                    "invalid duration '" + value + "': expected a number with ms, s, m or h, for example 30s or 1m30s");
        }
        return Duration.ofNanos(nanos);
    }
}
