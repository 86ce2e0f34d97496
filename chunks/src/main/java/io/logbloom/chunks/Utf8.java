package io.logbloom.chunks;

/**
 * UTF-8 length and encoding without the intermediate array of {@link String#getBytes}. Unpaired
 * surrogates become '?', exactly as {@code getBytes(UTF_8)} does. Thread-safe (stateless).
 */
final class Utf8 {
    private Utf8() {}

    /** The number of bytes {@code s} takes in UTF-8. */
    static int length(String s) {
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

    /** Writes {@code s} at {@code out[position]} (room for {@link #length} bytes must exist); returns the new position. */
    static int encode(String s, byte[] out, int position) {
        int n = s.length();
        int p = position;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[p++] = (byte) c;
            } else if (c < 0x800) {
                out[p++] = (byte) (0xC0 | (c >> 6));
                out[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out[p++] = (byte) (0xF0 | (cp >> 18));
                out[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                out[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                out[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                out[p++] = (byte) '?';
            } else {
                out[p++] = (byte) (0xE0 | (c >> 12));
                out[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return p;
    }
}
