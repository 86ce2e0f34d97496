package io.logbloom.logql;

/**
 * The {@link Logfmt} decoder's walk over a line's UTF-8 bytes: it reports where each pair's key and value lie
 * instead of building strings, so a caller looking for a few keys skips the others without allocating.
 *
 * <p>Design: every byte the walk tests is ASCII ({@code = " \ } and the bytes up to the space); UTF-8 encodes a
 * character of U+0080 or above only with bytes of 0x80 and above, which compare above the space exactly like
 * the characters they encode, so the walk meets the same separators at the same characters as the string walk
 * and yields the same pairs. A backslash skips one byte where the string walk skips one character: the
 * remaining bytes of a multi-byte character are continuation bytes, never a quote or backslash, so the two
 * walks stay in step. In strict mode the walk stops at the first place where {@link Logfmt} would throw.
 * Stateless and thread-safe.
 */
final class LogfmtBytes {
    /** The walk reached the end of the line (or an unterminated quote that lenient decoding ignores). */
    static final int DONE = 0;
    /** The sink asked to stop. */
    static final int STOPPED = 1;
    /** Strict decoding would fail here. */
    static final int MALFORMED = 2;

    /** Receives pairs as byte ranges of the line. */
    interface Sink {
        /**
         * One pair: the key is [{@code keyStart}, {@code keyEnd}); the value is [{@code valueStart},
         * {@code valueEnd}), still quoted-escaped when {@code escaped} (it held a backslash), empty for a standalone
         * key. Returns false to stop the walk.
         */
        boolean pair(byte[] line, int keyStart, int keyEnd, int valueStart, int valueEnd, boolean escaped,
                boolean standalone);
    }

    private LogfmtBytes() {
    }

    /** Walks [{@code offset}, {@code offset + length}) of {@code line}; returns {@link #DONE}, {@link #STOPPED} or {@link #MALFORMED}. */
    static int walk(byte[] line, int offset, int length, boolean strict, Sink sink) {
        int n = offset + length;
        int i = offset;
        while (i < n) {
            while (i < n && space(line[i])) {
                i++;
            }
            if (i >= n) {
                break;
            }
            int keyStart = i;
            while (i < n && !space(line[i]) && line[i] != '=' && line[i] != '"') {
                i++;
            }
            int keyEnd = i;
            if (keyEnd == keyStart) {
                if (strict) {
                    return MALFORMED;
                }
                i = skipToken(line, i, n);
                continue;
            }
            if (i >= n || space(line[i])) {
                if (!sink.pair(line, keyStart, keyEnd, i, i, false, true)) {
                    return STOPPED;
                }
                continue;
            }
            if (line[i] == '"') {
                if (strict) {
                    return MALFORMED;
                }
                i = skipToken(line, i, n);
                continue;
            }
            i++; // '='
            if (i >= n || space(line[i])) {
                if (!sink.pair(line, keyStart, keyEnd, i, i, false, false)) {
                    return STOPPED;
                }
                continue;
            }
            if (line[i] == '"') {
                int valueStart = ++i;
                boolean escaped = false;
                boolean closed = false;
                while (i < n) {
                    byte c = line[i];
                    if (c == '\\' && i + 1 < n) {
                        escaped = true;
                        i += 2;
                        continue;
                    }
                    if (c == '"') {
                        closed = true;
                        break;
                    }
                    i++;
                }
                if (!closed) {
                    return strict ? MALFORMED : DONE;
                }
                int valueEnd = i++;
                if (i < n && !space(line[i])) {
                    if (strict) {
                        return MALFORMED;
                    }
                    i = skipToken(line, i, n);
                    continue;
                }
                if (!sink.pair(line, keyStart, keyEnd, valueStart, valueEnd, escaped, false)) {
                    return STOPPED;
                }
            } else {
                int valueStart = i;
                while (i < n && !space(line[i])) {
                    if (strict && (line[i] == '"' || line[i] == '=')) {
                        return MALFORMED;
                    }
                    i++;
                }
                if (!sink.pair(line, keyStart, keyEnd, valueStart, i, false, false)) {
                    return STOPPED;
                }
            }
        }
        return DONE;
    }

    /** Decodes a quoted value's escapes as {@link Logfmt} does ({@code \n}, {@code \t}, {@code \r}, else the character). */
    static String unescape(byte[] line, int start, int end) {
        String raw = new String(line, start, end - start, java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\' && i + 1 < raw.length()) {
                char e = raw.charAt(++i);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean space(byte b) {
        return b >= 0 && b <= ' ';
    }

    private static int skipToken(byte[] line, int i, int n) {
        boolean quoted = false;
        while (i < n) {
            byte c = line[i];
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '\\' && quoted) {
                i++;
            } else if (space(c) && !quoted) {
                break;
            }
            i++;
        }
        return i;
    }
}
