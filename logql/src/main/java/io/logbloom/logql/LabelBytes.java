package io.logbloom.logql;

import java.nio.charset.StandardCharsets;

/** Label values and keys read on a line's UTF-8 bytes, as the row path reads their strings. Stateless. */
final class LabelBytes {
    private LabelBytes() {
    }

    /**
     * The integer an optional '-' and 1 to 15 ASCII digits spell (exact as a double, so equal to what
     * {@link Double#parseDouble} gives), else {@link Long#MIN_VALUE} (also for "-0").
     */
    static long digits(byte[] b, int from, int to) {
        int i = from;
        boolean negative = i < to && b[i] == '-';
        if (negative) {
            i++;
        }
        if (to - i < 1 || to - i > 15) {
            return Long.MIN_VALUE;
        }
        long v = 0;
        for (; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return negative ? (v == 0 ? Long.MIN_VALUE : -v) : v; // "-0" parses to -0.0, which no long spells
    }

    /**
     * Whether the key [{@code from}, {@code to}) sanitised as {@link Pipeline#sanitize} equals {@code want}: on
     * ASCII bytes directly (each byte other than a letter, digit or '_' becomes '_', a leading digit gains a '_'
     * prefix); a key with other characters is decoded and sanitised per character.
     */
    static boolean sanitizedEquals(byte[] b, int from, int to, byte[] want) {
        int j = 0;
        if (from < to && b[from] >= '0' && b[from] <= '9') {
            if (want.length == 0 || want[0] != '_') {
                return false;
            }
            j = 1;
        }
        if (to - from != want.length - j) {
            // a multi-byte character sanitises to fewer '_' than it has bytes: only then can the lengths differ
            return nonAscii(b, from, to) && Pipeline.sanitize(new String(b, from, to - from, StandardCharsets.UTF_8))
                    .equals(new String(want, StandardCharsets.UTF_8));
        }
        for (int i = from; i < to; i++, j++) {
            byte c = b[i];
            if (c < 0) {
                return Pipeline.sanitize(new String(b, from, to - from, StandardCharsets.UTF_8))
                        .equals(new String(want, StandardCharsets.UTF_8));
            }
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9';
            if (want[j] != (ok ? c : '_')) {
                return false;
            }
        }
        return true;
    }

    private static boolean nonAscii(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] < 0) {
                return true;
            }
        }
        return false;
    }
}
