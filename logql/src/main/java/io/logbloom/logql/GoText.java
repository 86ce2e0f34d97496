package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The text built-ins of Go's {@code text/template} that Loki's templates have besides its own and sprig's
 * functions: {@code print} / {@code println} (fmt.Sprint's spacing), {@code html}, {@code js} and {@code urlquery}
 * (Go's escapers), {@code index} and {@code slice} (on the label map and on strings, by bytes as Go indexes them).
 * Stateless.
 */
final class GoText {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private GoText() {}

    /** fmt.Sprint (a space between two operands when neither is a string), or fmt.Sprintln (always, and a newline). */
    static String sprint(List<Object> args, boolean line) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < args.size(); i++) {
            if (i > 0 && (line || !(args.get(i - 1) instanceof String) && !(args.get(i) instanceof String))) {
                sb.append(' ');
            }
            sb.append(Template.print(args.get(i)));
        }
        return line ? sb.append('\n').toString() : sb.toString();
    }

    /** template.HTMLEscapeString. */
    static String html(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("&#34;");
                case '\'' -> sb.append("&#39;");
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '\0' -> sb.append('\uFFFD');
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** template.JSEscapeString: quotes, backslash, {@code <>&=} and controls escaped, unprintable runes as \\uXXXX. */
    static String js(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case '"' -> sb.append("\\\"");
                case '<' -> sb.append("\\u003C");
                case '>' -> sb.append("\\u003E");
                case '&' -> sb.append("\\u0026");
                case '=' -> sb.append("\\u003D");
                default -> {
                    if (c < ' ') {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else if (c < 0x80 || printable(c)) {
                        sb.appendCodePoint(c);
                    } else {
                        sb.append(String.format(java.util.Locale.ROOT, "\\u%04X", c));
                    }
                }
            }
        }
        return sb.toString();
    }

    /** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean printable(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.UNASSIGNED, Character.PRIVATE_USE,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }

    /** url.QueryEscape: unreserved bytes kept, a space as +, every other byte as %XX. */
    static String queryEscape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-_.~".indexOf(c) >= 0) {
                sb.append((char) c);
            } else if (c == ' ') {
                sb.append('+');
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return sb.toString();
    }

    /**
     * url.QueryUnescape: {@code +} as a space, {@code %XX} as its byte; a bad escape fails with Go's error (the
     * function's error, as Loki's urldecode reports it).
     */
    static String queryUnescape(String s) {
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; i++) {
            byte c = in[i];
            if (c == '%') {
                if (i + 2 >= in.length || Character.digit(in[i + 1], 16) < 0 || Character.digit(in[i + 2], 16) < 0) {
                    String bad = new String(in, i, Math.min(3, in.length - i), StandardCharsets.UTF_8);
                    throw new IllegalArgumentException("error calling urldecode: invalid URL escape "
                            + GoStrings.quote(bad));
                }
                out.write(Character.digit(in[i + 1], 16) << 4 | Character.digit(in[i + 2], 16));
                i += 2;
            } else {
                out.write(c == '+' ? ' ' : c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * sprig's b64dec: Go's {@code base64.StdEncoding.DecodeString} (padding required, {@code \r} and {@code \n}
     * skipped anywhere), and on bad input Go's error text as the result, as sprig returns it
     * ({@code illegal base64 data at input byte 4}).
     */
    static String base64Decode(String s) {
        byte[] src = s.getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(src.length / 4 * 3);
        int si = 0;
        while (si < src.length) {
            int[] quantum = new int[4];
            int length = 4;
            long trailingGarbage = -1;
            for (int j = 0; j < 4; j++) {
                if (si == src.length) {
                    if (j == 0) {
                        return out.toString(StandardCharsets.UTF_8); // only line breaks were left
                    }
                    return corrupt(si - j);
                }
                byte in = src[si++];
                int value = BASE64_DECODE[in & 0xFF];
                if (value >= 0) {
                    quantum[j] = value;
                    continue;
                }
                if (in == '\n' || in == '\r') {
                    j--;
                    continue;
                }
                if (in != '=' || j < 2) {
                    return corrupt(si - 1);
                }
                if (j == 2) { // "==" expected, the first one read
                    si = skipLineBreaks(src, si);
                    if (si == src.length) {
                        return corrupt(src.length);
                    }
                    if (src[si] != '=') {
                        return corrupt(si - 1);
                    }
                    si++;
                }
                si = skipLineBreaks(src, si);
                if (si < src.length) {
                    trailingGarbage = si;
                }
                length = j;
                break;
            }
            int bits = quantum[0] << 18 | quantum[1] << 12 | quantum[2] << 6 | quantum[3];
            for (int k = 0; k < length - 1; k++) {
                out.write(bits >> (16 - 8 * k) & 0xFF);
            }
            if (trailingGarbage >= 0) {
                return corrupt(trailingGarbage);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Per byte, its value in the standard base64 alphabet, or -1. */
    private static final int[] BASE64_DECODE = new int[256];

    static {
        java.util.Arrays.fill(BASE64_DECODE, -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            BASE64_DECODE[alphabet.charAt(i)] = i;
        }
    }

    private static int skipLineBreaks(byte[] src, int from) {
        int i = from;
        while (i < src.length && (src[i] == '\n' || src[i] == '\r')) {
            i++;
        }
        return i;
    }

    private static String corrupt(long at) {
        return "illegal base64 data at input byte " + at;
    }

    /**
     * Go's {@code index item key...}: a map's value for a key (the empty string when absent, as Loki's templates give
     * a missing label), a string's byte at an index (a number, as Go prints a byte).
     */
    static Object index(List<Object> args) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("wrong number of args for index: want at least 1 got 0");
        }
        Object item = args.get(0);
        for (Object key : args.subList(1, args.size())) {
            if (item instanceof Map<?, ?> map) {
                Object value = map.get(Template.print(key));
                item = value == null ? "" : value;
            } else if (item instanceof String text && key instanceof Long at) {
                byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                if (at < 0 || at >= bytes.length) {
                    throw new IllegalArgumentException("error calling index: index out of range: " + at);
                }
                item = (long) (bytes[(int) (long) at] & 0xFF);
            } else {
                throw new IllegalArgumentException("error calling index: cannot index " + Template.print(item)
                        + " with " + Template.print(key));
            }
        }
        return item;
    }

    /** Go's {@code slice text [i [j]]}: the bytes of the string from i to j. */
    static String slice(List<Object> args) {
        if (args.isEmpty() || args.size() > 4) {
            throw new IllegalArgumentException("wrong number of args for slice: want 1 to 4 got " + args.size());
        }
        if (args.size() == 4) {
            throw new IllegalArgumentException("error calling slice: cannot 3-index slice a string");
        }
        byte[] bytes = Template.print(args.get(0)).getBytes(StandardCharsets.UTF_8);
        long from = args.size() > 1 ? bound(args.get(1), bytes.length) : 0;
        long to = args.size() > 2 ? bound(args.get(2), bytes.length) : bytes.length;
        if (from > to) {
            throw new IllegalArgumentException("error calling slice: invalid slice index: " + from + " > " + to);
        }
        return new String(bytes, (int) from, (int) (to - from), StandardCharsets.UTF_8);
    }

    private static long bound(Object index, int length) {
        if (!(index instanceof Long i)) {
            throw new IllegalArgumentException("error calling slice: cannot index slice/array with type "
                    + (index instanceof String ? "string" : index instanceof Double ? "float64" : "bool"));
        }
        if (i < 0 || i > length) {
            throw new IllegalArgumentException("error calling slice: index out of range: " + i);
        }
        return i;
    }
}
