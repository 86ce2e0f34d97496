package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The parsers Loki applies to unit-suffixed label values, with their exact acceptance and error texts: durations
 * as Go's {@code time.ParseDuration} (units ns, us, µs, μs, ms, s, m, h; no days or weeks, no surrounding space),
 * byte sizes as go-humanize's {@code ParseBytes} (SI and IEC suffixes in any case, commas among the digits, space
 * only before the suffix). Loki uses them in the duration and bytes label filters, in {@code unwrap duration()},
 * {@code duration_seconds()} and {@code bytes()}, and in the template functions {@code duration},
 * {@code duration_seconds} and {@code bytes}; the error text is what it puts in {@code __error_details__}.
 * Durations written in a query are parsed by {@link Units} (Prometheus' units too, as Loki's lexer).
 *
 * <p>A value that does not parse throws {@link GoStrings.ConversionException}, which has no stack trace: a
 * column of unparsable values costs an allocation per line, not a stack walk. Stateless and thread-safe.
 */
final class GoUnits {
    /** 1 << 63 as an unsigned 64-bit value: the bound Go's parser checks its unsigned sums against. */
    private static final long BOUND = Long.MIN_VALUE;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final Map<String, Long> DURATION_UNITS = Map.of("ns", 1L, "us", 1_000L, "\u00b5s", 1_000L,
            "\u03bcs", 1_000L, "ms", 1_000_000L, "s", NANOS_PER_SECOND, "m", 60 * NANOS_PER_SECOND,
            "h", 3600 * NANOS_PER_SECOND);
    private static final Map<String, Double> SIZE_UNITS = Map.ofEntries(Map.entry("", 1d), Map.entry("b", 1d),
            Map.entry("k", 1e3), Map.entry("kb", 1e3), Map.entry("ki", 0x1p10), Map.entry("kib", 0x1p10),
            Map.entry("m", 1e6), Map.entry("mb", 1e6), Map.entry("mi", 0x1p20), Map.entry("mib", 0x1p20),
            Map.entry("g", 1e9), Map.entry("gb", 1e9), Map.entry("gi", 0x1p30), Map.entry("gib", 0x1p30),
            Map.entry("t", 1e12), Map.entry("tb", 1e12), Map.entry("ti", 0x1p40), Map.entry("tib", 0x1p40),
            Map.entry("p", 1e15), Map.entry("pb", 1e15), Map.entry("pi", 0x1p50), Map.entry("pib", 0x1p50),
            Map.entry("e", 1e18), Map.entry("eb", 1e18), Map.entry("ei", 0x1p60), Map.entry("eib", 0x1p60));
    /** 2^64 as a double: go-humanize refuses a size at or above {@code math.MaxUint64}, which rounds to it. */
    private static final double MAX_UINT64 = 0x1p64;

    private GoUnits() {}

    /** Nanoseconds of a Go duration ({@code 1h30m}, {@code -1.5s}, {@code 300ms}, {@code 0}). */
    static long parseDuration(String text) {
        String s = text;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0;
        }
        if (s.isEmpty()) {
            throw invalidDuration(text);
        }
        long total = 0; // unsigned, at most 1 << 63
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c != '.' && !isDigit(c)) {
                throw invalidDuration(text);
            }
            // the integer part: unsigned, overflowing past 1 << 63 is an error
            int intStart = i;
            long v = 0;
            for (; i < n && isDigit(s.charAt(i)); i++) {
                if (Long.compareUnsigned(v, Long.divideUnsigned(BOUND, 10)) > 0) {
                    throw invalidDuration(text);
                }
                v = v * 10 + (s.charAt(i) - '0');
                if (Long.compareUnsigned(v, BOUND) > 0) {
                    throw invalidDuration(text);
                }
            }
            boolean pre = i > intStart;
            // the fraction: digits past what 63 bits hold are read and dropped
            long fraction = 0;
            double scale = 1;
            boolean post = false;
            if (i < n && s.charAt(i) == '.') {
                i++;
                int fractionStart = i;
                boolean overflow = false;
                for (; i < n && isDigit(s.charAt(i)); i++) {
                    if (overflow) {
                        continue;
                    }
                    if (Long.compareUnsigned(fraction, Long.MAX_VALUE / 10) > 0) {
                        overflow = true;
                        continue;
                    }
                    long y = fraction * 10 + (s.charAt(i) - '0');
                    if (Long.compareUnsigned(y, BOUND) > 0) {
                        overflow = true;
                        continue;
                    }
                    fraction = y;
                    scale *= 10;
                }
                post = i > fractionStart;
            }
            if (!pre && !post) {
                throw invalidDuration(text);
            }
            int unitStart = i;
            while (i < n && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
                i++;
            }
            if (i == unitStart) {
                throw new GoStrings.ConversionException("time: missing unit in duration " + timeQuote(text));
            }
            String unitName = s.substring(unitStart, i);
            Long unit = DURATION_UNITS.get(unitName);
            if (unit == null) {
                throw new GoStrings.ConversionException("time: unknown unit " + timeQuote(unitName) + " in duration "
                        + timeQuote(text));
            }
            if (Long.compareUnsigned(v, Long.divideUnsigned(BOUND, unit)) > 0) {
                throw invalidDuration(text);
            }
            v *= unit;
            if (fraction != 0) {
                v += (long) (unsignedToDouble(fraction) * (unit / scale));
                if (Long.compareUnsigned(v, BOUND) > 0) {
                    throw invalidDuration(text);
                }
            }
            total += v;
            if (Long.compareUnsigned(total, BOUND) > 0) {
                throw invalidDuration(text);
            }
        }
        if (negative) {
            return -total; // 1 << 63 negated is the smallest long, as in Go
        }
        if (total == BOUND) {
            throw invalidDuration(text);
        }
        return total;
    }

    /** A Go duration in seconds, as its {@code Seconds()}: whole seconds plus the remaining nanoseconds. */
    static double durationSeconds(String text) {
        long nanos = parseDuration(text);
        return (double) (nanos / NANOS_PER_SECOND) + (double) (nanos % NANOS_PER_SECOND) / 1e9;
    }

    /**
     * Bytes of a humanized size ({@code 42}, {@code 1.5 KiB}, {@code 20MB}, {@code 1,024kb}) as the double Loki
     * compares: the unsigned integer go-humanize truncates the product to.
     */
    static double parseBytes(String text) {
        int digitsEnd = 0;
        boolean commas = false;
        while (digitsEnd < text.length()) {
            int c = text.codePointAt(digitsEnd);
            if (!(Character.isDigit(c) || c == '.' || c == ',')) {
                break;
            }
            commas |= c == ',';
            digitsEnd += Character.charCount(c);
        }
        String number = text.substring(0, digitsEnd);
        if (commas) {
            number = number.replace(",", "");
        }
        double f = GoStrings.parseFloat(number); // digits and a dot only: no sign, exponent or name reaches it
        String unit = text.substring(digitsEnd).strip().toLowerCase(Locale.ROOT);
        Double multiplier = SIZE_UNITS.get(unit);
        if (multiplier == null) {
            throw new GoStrings.ConversionException("unhandled size name: " + unit);
        }
        f *= multiplier;
        if (f >= MAX_UINT64) {
            throw new GoStrings.ConversionException("too large: " + text);
        }
        return Math.floor(f);
    }

    /** An unsigned 64-bit value as the nearest double, as Go's {@code float64(uint64)}. */
    private static double unsignedToDouble(long v) {
        return v >= 0 ? v : ((v >>> 1) | (v & 1)) * 2.0;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static GoStrings.ConversionException invalidDuration(String text) {
        return new GoStrings.ConversionException("time: invalid duration " + timeQuote(text));
    }

    /**
     * Quotes as Go's time package does in its errors: ASCII printables as they are ({@code "} and {@code \}
     * escaped), every byte of other characters and of controls as {@code \xNN}.
     */
    static String timeQuote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (c >= 0x80 || c < ' ') {
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                    sb.append("\\x").append(Character.forDigit((b >> 4) & 0xF, 16))
                            .append(Character.forDigit(b & 0xF, 16));
                }
            } else {
                if (c == '"' || c == '\\') {
                    sb.append('\\');
                }
                sb.append((char) c);
            }
        }
        return sb.append('"').toString();
    }
}
