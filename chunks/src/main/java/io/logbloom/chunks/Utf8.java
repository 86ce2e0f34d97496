package io.logbloom.chunks;

/**
 * UTF-8 length of a string without encoding it; unpaired surrogates count as the one byte '?' that
 * {@code getBytes(UTF_8)} writes for them. Thread-safe (stateless).
 */
public final class Utf8 {
    private Utf8() {}

    /** The number of bytes {@code s} takes in UTF-8. */
    public static int length(String s) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    bytes += 1;
                } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    bytes += 2; // 4 bytes for 2 chars
                    i++;
                } else if (Character.isSurrogate(c)) {
                    bytes += 0; // replaced by '?'
                } else {
                    bytes += 2;
                }
            }
        }
        return bytes;
    }
}
