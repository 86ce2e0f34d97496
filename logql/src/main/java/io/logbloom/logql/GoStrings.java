package io.logbloom.logql;

/**
 * Go string-literal handling: {@link #unquote} decodes LogQL string tokens ({@code "..."} with Go
 * escapes, or backtick raw strings) and {@link #quote} prints strings the way Go's strconv.Quote does,
 * so printed queries parse back to the same value. Stateless and thread-safe.
 */
final class GoStrings {

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
