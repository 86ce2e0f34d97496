package io.logbloom.chunks;

/**
 * Rules for object-store keys, the same for every backend so a key that works on the filesystem works
 * on S3: non-empty, at most 1024 bytes (S3's limit), '/'-separated segments that are non-empty and
 * not {@code .} or {@code ..}, no leading '/', no backslash and no control characters. So a key can
 * never escape the store's root. Thread-safe (stateless).
 */
public final class ObjectKeys {
    /** S3's maximum key length in UTF-8 bytes. */
    public static final int MAX_KEY_BYTES = 1024;

    private ObjectKeys() {}

    /** Throws IllegalArgumentException naming the key and the rule it breaks. */
    public static void validate(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("object key is empty");
        }
        if (Utf8.length(key) > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("object key longer than " + MAX_KEY_BYTES + " bytes: '"
                    + key.substring(0, 64) + "...'");
        }
        validateCharacters(key, "object key");
        int start = 0;
        while (true) {
            int slash = key.indexOf('/', start);
            String segment = slash < 0 ? key.substring(start) : key.substring(start, slash);
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("object key '" + key + "' has an empty segment at position " + start);
            }
            if (segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("object key '" + key + "' has a '" + segment + "' segment");
            }
            if (slash < 0) {
                return;
            }
            start = slash + 1;
        }
    }

    /** Throws IllegalArgumentException when a list prefix contains characters no key may contain. */
    public static void validatePrefix(String prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("object key prefix is null");
        }
        validateCharacters(prefix, "object key prefix");
        if (prefix.startsWith("/")) {
            throw new IllegalArgumentException("object key prefix '" + prefix + "' starts with '/'");
        }
    }

    private static void validateCharacters(String key, String what) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == 0x7F || c == '\\') {
                throw new IllegalArgumentException(String.format("%s '%s' contains forbidden character U+%04X at position"
                        + " %d", what, key.replaceAll("\\p{Cntrl}", "?"), (int) c, i));
            }
            if (i == 0 && c == '/') {
                throw new IllegalArgumentException(what + " '" + key + "' starts with '/'");
            }
        }
    }
}
