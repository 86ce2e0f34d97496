package io.logbloom.logql;

import java.time.Duration;

/**
 * Parsing and printing of the durations written in a query ({@code 1h30m}, {@code 250ms}, {@code 1.5s}, Prometheus
 * units d/w/y included, as Loki's lexer takes them). Label values are parsed as Loki parses them, by {@link GoUnits}.
 * Stateless and thread-safe.
 */
final class Units {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private Units() {
    }

    /** Parses a Go/Prometheus duration into nanoseconds; throws IllegalArgumentException naming the text. */
    static long parseDurationNanos(String text) {
        String s = text.trim();
        boolean negative = false;
        if (s.startsWith("-") || s.startsWith("+")) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid duration: \"" + text + "\"");
        }
        if (s.equals("0")) {
            return 0;
        }
        double total = 0;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            if (start == i) {
                throw new IllegalArgumentException("invalid duration: \"" + text + "\"");
            }
            double num;
            try {
                num = Double.parseDouble(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid duration: \"" + text + "\"", e);
            }
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            long mult = switch (unit) {
                case "ns" -> 1L;
                case "us", "µs", "μs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> NANOS_PER_SECOND;
                case "m" -> 60 * NANOS_PER_SECOND;
                case "h" -> 3600 * NANOS_PER_SECOND;
                case "d" -> 86_400 * NANOS_PER_SECOND;
                case "w" -> 7 * 86_400 * NANOS_PER_SECOND;
                case "y" -> 365 * 86_400 * NANOS_PER_SECOND;
                default -> throw new IllegalArgumentException(
                        "invalid duration: \"" + text + "\" (unknown unit \"" + unit + "\")");
            };
            total += num * mult;
        }
        long nanos = Math.round(total);
        return negative ? -nanos : nanos;
    }

    /** Parses a duration. */
    static Duration parseDuration(String text) {
        return Duration.ofNanos(parseDurationNanos(text));
    }

    /** Prints a duration the way Prometheus' model.Duration does: {@code 1h30m}, {@code 5m}, {@code 1d}, {@code 250ms}. */
    static String formatDuration(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        StringBuilder sb = new StringBuilder();
        if (nanos < 0) {
            sb.append('-');
            nanos = -nanos;
        }
        long[] units = {365L * 86_400 * NANOS_PER_SECOND, 7L * 86_400 * NANOS_PER_SECOND, 86_400 * NANOS_PER_SECOND,
            3600 * NANOS_PER_SECOND, 60 * NANOS_PER_SECOND, NANOS_PER_SECOND, 1_000_000L, 1_000L, 1L};
        String[] names = {"y", "w", "d", "h", "m", "s", "ms", "us", "ns"};
        for (int i = 0; i < units.length; i++) {
            long n = nanos / units[i];
            if (n > 0) {
                sb.append(n).append(names[i]);
                nanos -= n * units[i];
            }
        }
        return sb.toString();
    }
}
