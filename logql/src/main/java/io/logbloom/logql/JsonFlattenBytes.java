package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code | json} parser's flattening (nested object keys joined by '_', each key sanitised, arrays skipped)
 * walked over a line's UTF-8 bytes: it reports each scalar field's flattened key and where its value lies, so a
 * caller looking for a few labels skips the others without allocating.
 *
 * <p>Design: the row-at-a-time parser is Jackson's streaming parser plus Loki's lenient scanner for errors. This
 * walk accepts only strict JSON as Jackson reads it by default (no comments, no single quotes, no leading zeros,
 * no control characters in strings, valid escapes) and answers {@link #UNSURE} at anything else (malformed or
 * unusual input, deep nesting, long numbers), so the caller falls back to the row-at-a-time parser for that line;
 * within strict JSON both yield the same fields with the same values: Jackson's text of a number is the number
 * as written, and what follows the top-level object is never read. Not thread-safe: it reuses a key buffer.
 */
final class JsonFlattenBytes extends StrictJsonBytes {
    /** The walk covered the top-level object. */
    static final int DONE = 0;
    /** The line is not strict JSON this walk accepts: the row-at-a-time parser must decide. */
    static final int UNSURE = 1;
    /**
     * The line does not open an object (empty, blank, or its first byte after spaces is not '{'): the parser sets
     * its error and no label, as the row-at-a-time parser does without reading further ({@link JsonObjectScan#opensObject}).
     */
    static final int NOT_OBJECT = 2;

    /**
     * Whether a line whose first byte is {@code first} (-1: the line is empty; below that: not known) opens no object
     * whatever follows, so {@link #walk} would answer {@link #NOT_OBJECT}: a caller holding the line's tokens, not its
     * bytes, then has no line to rebuild.
     */
    static boolean opensNoObject(int first) {
        return first == -1 || first >= 0 && first != '{' && !isSpace(first);
    }

    /** Receives scalar fields. */
    interface Sink {
        /** A field whose flattened key is the first {@code keyLength} bytes of {@code key}; value kind and range. */
        void field(byte[] key, int keyLength, byte[] line, int valueStart, int valueEnd, int kind);
    }

    private byte[] key = new byte[64];
    private int keyLength;
    private Sink sink;

    /**
     * Walks the object in [{@code offset}, {@code offset + length}) of {@code bytes}; {@link #DONE}, {@link #UNSURE}
     * or {@link #NOT_OBJECT} (the sink then saw no field).
     */
    int walk(byte[] bytes, int offset, int length, Sink to) {
        start(bytes, offset, length);
        sink = to;
        keyLength = 0;
        skipSpace();
        if (pos >= end || line[pos] != '{') {
            return NOT_OBJECT;
        }
        pos++;
        return object(0) ? DONE : UNSURE;
    }

    /** The members of an object whose '{' was read, flattened under the current key prefix. */
    private boolean object(int depth) {
        int open = openObject(depth);
        if (open != MORE) {
            return open == CLOSED;
        }
        int prefix = keyLength;
        while (true) {
            if (!memberName()) {
                return false;
            }
            keyLength = prefix;
            if (!appendName(nameStart, nameEnd)) {
                return false;
            }
            byte c = line[pos];
            if (c == '{') {
                pos++;
                append((byte) '_');
                if (!object(depth + 1)) {
                    return false;
                }
            } else if (c == '[') {
                pos++;
                if (!array(depth + 1)) {
                    return false;
                }
            } else if (c == '"') {
                int start = ++pos;
                boolean escaped = stringEscaped();
                if (pos < 0) {
                    return false;
                }
                sink.field(key, keyLength, line, start, pos - 1, escaped ? ESCAPED : PLAIN);
            } else {
                int start = pos;
                int kind = literal();
                if (kind < 0) {
                    return false;
                }
                sink.field(key, keyLength, line, start, pos, kind);
            }
            keyLength = prefix;
            int next = afterElement((byte) '}');
            if (next != MORE) {
                return next == CLOSED;
            }
        }
    }

    /** Appends the sanitised form of the name in [start, end) (unescaped when it holds escapes). */
    private boolean appendName(int start, int nameEnd) {
        boolean simple = true;
        for (int i = start; i < nameEnd; i++) {
            if (line[i] < 0 || line[i] == '\\') {
                simple = false;
                break;
            }
        }
        if (!simple) {
            String name = unescape(line, start, nameEnd);
            if (name == null) {
                return false;
            }
            byte[] sanitized = Pipeline.sanitize(name).getBytes(StandardCharsets.UTF_8);
            for (byte b : sanitized) {
                append(b);
            }
            return true;
        }
        if (start < nameEnd && digit(line[start])) {
            append((byte) '_');
        }
        for (int i = start; i < nameEnd; i++) {
            byte c = line[i];
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || digit(c);
            append(ok ? c : (byte) '_');
        }
        return true;
    }

    private void append(byte b) {
        if (keyLength == key.length) {
            key = Arrays.copyOf(key, key.length * 2);
        }
        key[keyLength++] = b;
    }

}
