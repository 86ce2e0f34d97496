package io.logbloom.api;

import io.logbloom.logql.GoStrings;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loki's query-parameter rules ({@code pkg/loghttp/params.go}), as pure functions over a parameter
 * lookup: timestamps as nanosecond or second integers (10 digits or fewer are seconds), float
 * seconds (rounded to the millisecond) or RFC3339; {@code since} and {@code step} as Prometheus
 * durations or float seconds; defaults limit 100, range one hour back from now, direction
 * backward, step {@code max(floor(range/250s), 1s)}. Errors are {@link HttpException} 400 with
 * Loki's texts. Stateless and thread-safe.
 */
final class QueryParams {
    /** Loki's default number of entries. */
    static final int DEFAULT_LIMIT = 100;
    /** Loki's default look-back when start and since are absent: one hour. */
    static final long DEFAULT_SINCE_NANOS = 3_600_000_000_000L;
    /** Loki's (and Prometheus') cap on points per series: 11,000. */
    static final long MAX_POINTS = 11_000;

    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ms|s|m|h|d|w|y)");

    /** A parsed time range in nanoseconds. */
    record Range(long startNanos, long endNanos) {}

    private QueryParams() {}

    static HttpException badRequest(String message) {
        return new HttpException(400, "bad_request", message);
    }

    /** The {@code limit} parameter, 100 when absent; must be positive. */
    static int limit(Function<String, String> params) {
        String v = params.apply("limit");
        if (v == null || v.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw badRequest("invalid parameter \"limit\": strconv.Atoi: parsing \"" + v + "\": invalid syntax");
        }
        if (limit <= 0) {
            throw badRequest("limit must be a positive value");
        }
        return limit;
    }

    /** The {@code direction} parameter, backward when absent. */
    static boolean forward(Function<String, String> params) {
        String v = params.apply("direction");
        if (v == null || v.isEmpty()) {
            return false;
        }
        return switch (v.toUpperCase(Locale.ROOT)) {
            case "FORWARD" -> true;
            case "BACKWARD" -> false;
            default -> throw badRequest("invalid direction '" + v + "'");
        };
    }

    /** Instant-query time: {@code time}, now when absent. */
    static long time(Function<String, String> params, long nowNanos) {
        return timestamp("time", params.apply("time"), nowNanos);
    }

    /** Range bounds: {@code end} (default now); {@code start}, else {@code end - since}, else end - 1h. */
    static Range range(Function<String, String> params, long nowNanos) {
        long end = timestamp("end", params.apply("end"), nowNanos);
        String since = params.apply("since");
        long defaultStart = saturatedMinus(end, DEFAULT_SINCE_NANOS);
        if (since != null && !since.isEmpty()) {
            defaultStart = saturatedMinus(end, duration("since", since));
        }
        long start = timestamp("start", params.apply("start"), defaultStart);
        return new Range(start, end);
    }

    /** Range bounds for query_range, rejecting end before start like Loki. */
    static Range queryRange(Function<String, String> params, long nowNanos) {
        Range r = range(params, nowNanos);
        if (r.endNanos() < r.startNanos()) {
            throw badRequest("end timestamp must not be before or equal to start time");
        }
        return r;
    }

    /** The {@code step}: float seconds or a duration; default {@code max(floor(range/250), 1)} seconds. */
    static long step(Function<String, String> params, Range range) {
        String v = params.apply("step");
        long step;
        if (v == null || v.isEmpty()) {
            long seconds = Math.max(span(range) / 1_000_000_000L / 250, 1);
            step = Math.multiplyHigh(seconds, 1_000_000_000L) != 0 ? Long.MAX_VALUE : seconds * 1_000_000_000L;
        } else {
            step = secondsOrDuration("step", v);
        }
        if (step <= 0) {
            throw badRequest("zero or negative query resolution step widths are not accepted. Try a positive integer");
        }
        if (span(range) / step > MAX_POINTS) {
            throw badRequest("exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query "
                    + "resolution (?step=XX)");
        }
        return step;
    }

    /** {@code end - start} in nanoseconds, saturated at {@link Long#MAX_VALUE} (the bounds may be far apart). */
    private static long span(Range range) {
        return saturatedMinus(range.endNanos(), range.startNanos());
    }

    /** {@code a - b}, clamped to the long range instead of wrapping around. */
    private static long saturatedMinus(long a, long b) {
        long difference = a - b;
        if (((a ^ b) & (a ^ difference)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return difference;
    }

    /** The optional {@code interval} (log queries over a range: one entry per interval); 0 when absent. */
    static long interval(Function<String, String> params) {
        String v = params.apply("interval");
        if (v == null || v.isEmpty()) {
            return 0;
        }
        long interval = secondsOrDuration("interval", v);
        if (interval < 0) {
            throw badRequest("interval must be >= 0");
        }
        return interval;
    }

    /**
     * Float seconds as Go's ParseFloat reads them, else a Prometheus duration; errors as Loki's ({@code 1d} is a day:
     * Java's own parser would read it as 1 second).
     */
    static long secondsOrDuration(String name, String value) {
        try {
            double seconds = GoStrings.parseFloat(value);
            double nanos = seconds * 1e9;
            if (Double.isNaN(nanos) || nanos > Long.MAX_VALUE || nanos < Long.MIN_VALUE) {
                throw badRequest("cannot parse \"" + value + "\" to a valid duration. It overflows int64");
            }
            return (long) nanos;
        } catch (GoStrings.ConversionException notFloat) {
            return duration(name, value);
        }
    }

    /**
     * A Prometheus duration ({@code 1h30m}, {@code 500ms}, {@code 7d}, {@code 1w}, {@code 1y}): units in
     * decreasing order, each at most once.
     */
    static long duration(String name, String value) {
        String bad = "invalid parameter \"" + name + "\": cannot parse \"" + value + "\" to a valid duration";
        if (value.isEmpty() || value.equals("0")) {
            if (value.equals("0")) {
                return 0;
            }
            throw badRequest(bad);
        }
        Matcher m = DURATION_PART.matcher(value);
        int pos = 0;
        long total = 0;
        int lastUnit = Integer.MAX_VALUE;
        while (pos < value.length()) {
            if (!m.find(pos) || m.start() != pos) {
                throw badRequest(bad);
            }
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException tooManyDigits) {
                throw badRequest(bad + ": it overflows int64");
            }
            int unitRank;
            long unitNanos;
            switch (m.group(2)) {
                case "y" -> { unitRank = 7; unitNanos = 365L * 86_400_000_000_000L; }
                case "w" -> { unitRank = 6; unitNanos = 7L * 86_400_000_000_000L; }
                case "d" -> { unitRank = 5; unitNanos = 86_400_000_000_000L; }
                case "h" -> { unitRank = 4; unitNanos = 3_600_000_000_000L; }
                case "m" -> { unitRank = 3; unitNanos = 60_000_000_000L; }
                case "s" -> { unitRank = 2; unitNanos = 1_000_000_000L; }
                default -> { unitRank = 1; unitNanos = 1_000_000L; }
            }
            if (unitRank >= lastUnit) {
                throw badRequest(bad);
            }
            lastUnit = unitRank;
            try {
                total = Math.addExact(total, Math.multiplyExact(n, unitNanos));
            } catch (ArithmeticException overflow) {
                throw badRequest(bad + ": it overflows int64");
            }
            pos = m.end();
        }
        return total;
    }

    /** One Loki timestamp; {@code defaultNanos} when absent. */
    static long timestamp(String name, String value, long defaultNanos) {
        if (value == null || value.isEmpty()) {
            return defaultNanos;
        }
        if (value.contains(".")) {
            try {
                // as Loki: Go's ParseFloat, math.Modf's whole and fractional parts, the fraction to milliseconds
                double t = GoStrings.parseFloat(value);
                double seconds = t < 0 ? Math.ceil(t) : Math.floor(t);
                double frac = t - seconds;
                double millis = Math.signum(frac) * Math.floor(Math.abs(frac) * 1000 + 0.5) / 1000;
                return (long) seconds * 1_000_000_000L + Math.round(millis * 1e9);
            } catch (GoStrings.ConversionException notFloat) {
                // fall through to integer and RFC3339 forms
            }
        }
        try {
            long n = GoStrings.parseInt(value);
            return value.length() <= 10 ? Math.multiplyExact(n, 1_000_000_000L) : n;
        } catch (GoStrings.ConversionException | ArithmeticException notInteger) {
            try {
                Instant i = OffsetDateTime.parse(value).toInstant();
                return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
            } catch (DateTimeParseException | ArithmeticException e) {
                throw badRequest("invalid parameter \"" + name + "\": cannot parse \"" + value
                        + "\" to a valid timestamp");
            }
        }
    }
}
