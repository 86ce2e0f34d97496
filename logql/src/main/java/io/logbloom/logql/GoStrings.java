package io.logbloom.logql;

/**
 * Go string-literal handling: {@link #unquote} decodes LogQL string tokens ({@code "..."} with Go
 * escapes, or backtick raw strings) and {@link #quote} prints strings the way Go's strconv.Quote does,
 * so printed queries parse back to the same value. Stateless and thread-safe.
 */
public final class GoStrings {

    private GoStrings() {
    }

    /** Decodes a quoted or raw string token; throws IllegalArgumentException naming a bad escape. */
    static String unquote(String token) {
        if (token.length() < 2) {
            throw new IllegalArgumentException("invalid string literal: " + token);
        }
        char q = token.charAt(0);
        String body = token.substring(1, token.length() - 1);
        if (q == '`') {
            return body;
        }
        StringBuilder sb = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i + 1 >= body.length()) {
                throw new IllegalArgumentException("invalid escape at end of string " + token);
            }
            char e = body.charAt(++i);
            switch (e) {
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'v' -> sb.append('\u000b');
                case '\\' -> sb.append('\\');
                case '"' -> sb.append('"');
                case '\'' -> sb.append('\'');
                case 'x' -> {
                    sb.append((char) hex(body, i + 1, 2, token));
                    i += 2;
                }
                case 'u' -> {
                    sb.appendCodePoint(hex(body, i + 1, 4, token));
                    i += 4;
                }
                case 'U' -> {
                    sb.appendCodePoint(hex(body, i + 1, 8, token));
                    i += 8;
                }
                default -> {
                    if (e >= '0' && e <= '7' && i + 2 < body.length()) {
                        sb.append((char) Integer.parseInt(body.substring(i, i + 3), 8));
                        i += 2;
                    } else {
                        throw new IllegalArgumentException("invalid escape \\" + e + " in string " + token);
                    }
                }
            }
        }
        return sb.toString();
    }

    private static int hex(String s, int from, int len, String token) {
        if (from + len > s.length()) {
            throw new IllegalArgumentException("truncated escape in string " + token);
        }
        try {
            return Integer.parseInt(s.substring(from, from + len), 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid hex escape in string " + token, e);
        }
    }

    /**
     * Parses like Go's {@code strconv.ParseFloat(s, 64)}, as Loki's numeric label filters and unwraps do: decimal and
     * hexadecimal floating-point syntax (a hexadecimal needs its {@code p} exponent), underscores only between digits
     * or after a base prefix, {@code Inf}/{@code Infinity} with an optional sign and {@code NaN} in any case. Java's own
     * parser differs at the edges ({@code 500d} and {@code 1f} parse there, {@code inf} does not, an overflow is
     * silently infinite).
     *
     * @throws IllegalArgumentException worded as Go's error: {@code strconv.ParseFloat: parsing "s": invalid syntax},
     *     or {@code value out of range} when the value overflows a double (Go then also fails)
     */
    public static double parseFloat(String s) {
        int n = s.length();
        int i = signLength(s);
        if (i < n && Character.toLowerCase(s.charAt(i)) == 'i') {
            String rest = s.substring(i);
            if (rest.equalsIgnoreCase("inf") || rest.equalsIgnoreCase("infinity")) {
                return s.charAt(0) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
        }
        if (n == 3 && s.equalsIgnoreCase("nan")) { // unsigned only, as Go
            return Double.NaN;
        }
        boolean hex = i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X');
        if (hex) {
            i += 2;
        }
        boolean underscores = false;
        boolean dot = false;
        boolean digits = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c == '_') {
                underscores = true;
            } else if (c == '.' && !dot) {
                dot = true;
            } else if (c >= '0' && c <= '9' || hex && isHexLetter(c)) {
                digits = true;
            } else {
                break;
            }
        }
        if (!digits) {
            throw floatSyntax(s);
        }
        char exponent = hex ? 'p' : 'e';
        if (i < n && Character.toLowerCase(s.charAt(i)) == exponent) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            if (i >= n || s.charAt(i) < '0' || s.charAt(i) > '9') {
                throw floatSyntax(s);
            }
            for (; i < n && (s.charAt(i) >= '0' && s.charAt(i) <= '9' || s.charAt(i) == '_'); i++) {
                underscores |= s.charAt(i) == '_';
            }
        } else if (hex) {
            throw floatSyntax(s); // a hexadecimal float must have its exponent
        }
        if (i != n || underscores && !underscoresBetweenDigits(s)) {
            throw floatSyntax(s);
        }
        double value = Double.parseDouble(underscores ? s.replace("_", "") : s);
        if (Double.isInfinite(value)) {
            throw new ConversionException("strconv.ParseFloat: parsing " + quote(s) + ": value out of range");
        }
        return value;
    }

    /**
     * Go's {@code strconv.ParseInt(s, 10, 64)}: an optional sign, then ASCII digits only; a value past 64 bits is
     * out of range (reported where the digits overflow, before any later bad character), as Go words it.
     */
    public static long parseInt(String s) {
        return parseInt(s, 10);
    }

    /**
     * Go's {@code strconv.ParseInt(s, base, 64)} for base 10 or 0; base 0 reads the prefix as Go does ({@code 0x}
     * hexadecimal, {@code 0o} or a bare leading {@code 0} octal, {@code 0b} binary) and allows underscores between
     * digits.
     */
    static long parseInt(String s, int base) {
        if (base != 0 && base != 10) {
            throw new IllegalArgumentException("base must be 0 or 10, got " + base);
        }
        int i = signLength(s);
        boolean negative = i == 1 && s.charAt(0) == '-';
        if (i == s.length()) {
            throw intSyntax(s);
        }
        boolean prefixed = base == 0;
        int radix = 10;
        if (prefixed && s.charAt(i) == '0') {
            char p = s.length() - i >= 3 ? Character.toLowerCase(s.charAt(i + 1)) : 0;
            radix = p == 'b' ? 2 : p == 'x' ? 16 : 8;
            i += p == 'b' || p == 'o' || p == 'x' ? 2 : 1;
        }
        long cutoff = Long.divideUnsigned(-1L, radix) + 1; // the first value whose product passes 64 unsigned bits
        long n = 0;
        boolean underscores = false;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            int d;
            if (c == '_' && prefixed) {
                underscores = true;
                continue;
            } else if (c >= '0' && c <= '9') {
                d = c - '0';
            } else if (Character.toLowerCase(c) >= 'a' && Character.toLowerCase(c) <= 'z') {
                d = Character.toLowerCase(c) - 'a' + 10;
            } else {
                throw intSyntax(s);
            }
            if (d >= radix) {
                throw intSyntax(s);
            }
            if (Long.compareUnsigned(n, cutoff) >= 0) {
                throw intRange(s);
            }
            long next = n * radix + d;
            if (Long.compareUnsigned(next, n * radix) < 0) {
                throw intRange(s);
            }
            n = next;
        }
        if (underscores && !underscoresBetweenDigits(s)) {
            throw intSyntax(s);
        }
        if (!negative && Long.compareUnsigned(n, Long.MIN_VALUE) >= 0
                || negative && Long.compareUnsigned(n, Long.MIN_VALUE) > 0) {
            throw intRange(s);
        }
        return negative ? -n : n;
    }

    private static ConversionException intSyntax(String s) {
        return new ConversionException("strconv.ParseInt: parsing " + quote(s) + ": invalid syntax");
    }

    /**
     * Go's {@code strconv.FormatFloat(v, 'g', -1, 64)}, which is also how fmt's {@code %v} and a template print a
     * float64: the shortest digits that read back as {@code v}, in exponent form when the exponent is below -4 or at
     * least 6 ({@code 1e+06}, {@code 1.5e-05}, {@code 123456}), {@code +Inf}, {@code -Inf}, {@code NaN}.
     */
    static String formatFloat(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == 0) {
            return 1 / v < 0 ? "-0" : "0";
        }
        String e = null;
        for (int digits = 1; digits <= 17; digits++) { // the fewest correctly rounded digits that read back
            e = String.format(java.util.Locale.ROOT, "%." + (digits - 1) + "e", Math.abs(v));
            if (Double.parseDouble(e) == Math.abs(v)) {
                break;
            }
        }
        int mark = e.indexOf('e');
        String mantissa = e.substring(0, mark).replace(".", "");
        int exponent = Integer.parseInt(e.substring(mark + 1));
        int end = mantissa.length();
        while (end > 1 && mantissa.charAt(end - 1) == '0') {
            end--;
        }
        mantissa = mantissa.substring(0, end);
        StringBuilder sb = new StringBuilder(v < 0 ? "-" : "");
        if (exponent < -4 || exponent >= 6) {
            sb.append(mantissa.charAt(0));
            if (mantissa.length() > 1) {
                sb.append('.').append(mantissa, 1, mantissa.length());
            }
            String exp = Integer.toString(Math.abs(exponent));
            return sb.append('e').append(exponent < 0 ? '-' : '+').append(exp.length() < 2 ? "0" : "").append(exp)
                    .toString();
        }
        if (exponent < 0) {
            return sb.append("0.").append("0".repeat(-exponent - 1)).append(mantissa).toString();
        }
        if (mantissa.length() <= exponent + 1) {
            return sb.append(mantissa).append("0".repeat(exponent + 1 - mantissa.length())).toString();
        }
        return sb.append(mantissa, 0, exponent + 1).append('.').append(mantissa, exponent + 1, mantissa.length())
                .toString();
    }

    private static ConversionException intRange(String s) {
        return new ConversionException("strconv.ParseInt: parsing " + quote(s) + ": value out of range");
    }

    /** 1 when {@code s} starts with a sign, else 0. */
    private static int signLength(String s) {
        return !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
    }

    private static boolean isHexLetter(char c) {
        char l = Character.toLowerCase(c);
        return l >= 'a' && l <= 'f';
    }

    /** Go's rule for underscores in a number: each between two digits, or between a base prefix and a digit. */
    private static boolean underscoresBetweenDigits(String s) {
        int i = signLength(s);
        char saw = '^';
        boolean hex = false;
        if (s.length() - i >= 2 && s.charAt(i) == '0' && "bBoOxX".indexOf(s.charAt(i + 1)) >= 0) {
            hex = s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X';
            i += 2;
            saw = '0';
        }
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9' || hex && isHexLetter(c)) {
                saw = '0';
            } else if (c == '_') {
                if (saw != '0') {
                    return false;
                }
                saw = '_';
            } else if (saw == '_') {
                return false;
            } else {
                saw = '!';
            }
        }
        return saw != '_';
    }

    private static IllegalArgumentException floatSyntax(String s) {
        return new ConversionException("strconv.ParseFloat: parsing " + quote(s) + ": invalid syntax");
    }

    /**
     * A value that does not convert (bad syntax or out of range), worded as Go's error, without a stack trace: a filter over a field that never
     * converts (an access log's {@code -} for no bytes) meets one per line.
     */
    public static final class ConversionException extends IllegalArgumentException {
        ConversionException(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /** Quotes like Go's strconv.Quote: double quotes, backslash escapes for quotes, backslashes and controls. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\u0007' -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\u000b' -> sb.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\x%02x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
