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
final class JsonFlattenBytes {
    /** The walk covered the top-level object. */
    static final int DONE = 0;
    /** The line is not strict JSON this walk accepts: the row-at-a-time parser must decide. */
    static final int UNSURE = 1;
    /**
     * The line does not open an object (empty, blank, or its first byte after spaces is not '{'): the parser sets
     * its error and no label, as the row-at-a-time parser does without reading further ({@link JsonObjectScan#opensObject}).
     */
    static final int NOT_OBJECT = 2;

    /** A string value without escapes: the bytes between the quotes are its UTF-8. */
    static final int PLAIN = 0;
    /** A string value with escapes (the range is still escaped). */
    static final int ESCAPED = 1;
    /** A number, true or false: the range is the text. */
    static final int LITERAL = 2;
    /** null: the label's value is "". */
    static final int NULL = 3;

    /** Nesting the walk follows; deeper lines go to Jackson, whose own limit is far higher. */
    private static final int MAX_DEPTH = 64;
    /** Longest number the walk accepts; Jackson's limit is 1000 digits. */
    private static final int MAX_NUMBER_LENGTH = 200;
    // what follows an element of an object or array (afterElement)
    private static final int MORE = 0;
    private static final int CLOSED = 1;
    private static final int INVALID = 2;

    /** Receives scalar fields. */
    interface Sink {
        /** A field whose flattened key is the first {@code keyLength} bytes of {@code key}; value kind and range. */
        void field(byte[] key, int keyLength, byte[] line, int valueStart, int valueEnd, int kind);
    }

    private byte[] key = new byte[64];
    private int keyLength;
    private byte[] line;
    private int end;
    private int pos;
    private Sink sink;

    /**
     * Walks the object in [{@code offset}, {@code offset + length}) of {@code bytes}; {@link #DONE}, {@link #UNSURE}
     * or {@link #NOT_OBJECT} (the sink then saw no field).
     */
    int walk(byte[] bytes, int offset, int length, Sink to) {
        line = bytes;
        end = offset + length;
        pos = offset;
        sink = to;
        keyLength = 0;
        skipSpace();
        if (pos >= end || line[pos] != '{') {
            return NOT_OBJECT;
        }
        pos++;
        return object(0) ? DONE : UNSURE;
    }

    private void skipSpace() {
        while (pos < end && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\n' || line[pos] == '\r')) {
            pos++;
        }
    }

    /**
     * Reads what follows an element of an object or array: {@link #CLOSED} after {@code close}, {@link #MORE}
     * after a ',', {@link #INVALID} otherwise.
     */
    private int afterElement(byte close) {
        skipSpace();
        if (pos >= end || (line[pos] != close && line[pos] != ',')) {
            return INVALID;
        }
        return line[pos++] == close ? CLOSED : MORE;
    }

    /** The members of an object whose '{' was read, flattened under the current key prefix. */
    private boolean object(int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        int prefix = keyLength;
        skipSpace();
        if (pos < end && line[pos] == '}') {
            pos++;
            return true;
        }
        while (true) {
            skipSpace();
            if (pos >= end || line[pos] != '"') {
                return false;
            }
            int nameStart = ++pos;
            if (!string()) {
                return false;
            }
            int nameEnd = pos - 1;
            keyLength = prefix;
            if (!appendName(nameStart, nameEnd)) {
                return false;
            }
            skipSpace();
            if (pos >= end || line[pos] != ':') {
                return false;
            }
            pos++;
            skipSpace();
            if (pos >= end) {
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

    /** The elements of an array whose '[' was read: validated and skipped. */
    private boolean array(int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        skipSpace();
        if (pos < end && line[pos] == ']') {
            pos++;
            return true;
        }
        while (true) {
            skipSpace();
            if (!skipValue(depth)) {
                return false;
            }
            int next = afterElement((byte) ']');
            if (next != MORE) {
                return next == CLOSED;
            }
        }
    }

    private boolean skipValue(int depth) {
        if (pos >= end) {
            return false;
        }
        byte c = line[pos];
        if (c == '[') {
            pos++;
            return array(depth + 1);
        }
        if (c == '{') {
            if (depth > MAX_DEPTH) {
                return false;
            }
            pos++;
            skipSpace();
            if (pos < end && line[pos] == '}') {
                pos++;
                return true;
            }
            while (true) {
                skipSpace();
                if (pos >= end || line[pos] != '"') {
                    return false;
                }
                pos++;
                if (!string()) {
                    return false;
                }
                skipSpace();
                if (pos >= end || line[pos] != ':') {
                    return false;
                }
                pos++;
                skipSpace();
                if (!skipValue(depth + 1)) {
                    return false;
                }
                int next = afterElement((byte) '}');
                if (next != MORE) {
                    return next == CLOSED;
                }
            }
        }
        if (c == '"') {
            pos++;
            return string();
        }
        return literal() >= 0;
    }

    /** Skips a string's content and closing quote; false when it is not valid. */
    private boolean string() {
        stringEscaped();
        return pos >= 0;
    }

    /** Skips a string's content and closing quote, answering whether it held escapes; sets pos to -1 when invalid. */
    private boolean stringEscaped() {
        boolean escaped = false;
        while (pos < end) {
            byte c = line[pos];
            if (c == '"') {
                pos++;
                return escaped;
            }
            if (c >= 0 && c < 0x20) {
                break; // Jackson rejects unescaped control characters
            }
            if (c == '\\') {
                escaped = true;
                if (pos + 1 >= end) {
                    break;
                }
                byte e = line[pos + 1];
                if (e == 'u') {
                    if (pos + 6 > end || !hex(pos + 2) || !hex(pos + 3) || !hex(pos + 4) || !hex(pos + 5)) {
                        break;
                    }
                    pos += 6;
                    continue;
                }
                if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
                    break;
                }
                pos += 2;
                continue;
            }
            pos++;
        }
        pos = -1;
        end = -1; // stops every loop of the walk
        return escaped;
    }

    private boolean hex(int i) {
        byte c = line[i];
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /** Reads a number, true, false or null in strict JSON syntax; its kind, or -1. */
    private int literal() {
        if (matches("true") || matches("false")) {
            return LITERAL;
        }
        if (matches("null")) {
            return NULL;
        }
        int start = pos;
        if (pos < end && line[pos] == '-') {
            pos++;
        }
        if (pos >= end || !digit(line[pos])) {
            return -1;
        }
        if (line[pos] == '0') {
            pos++;
        } else {
            while (pos < end && digit(line[pos])) {
                pos++;
            }
        }
        if (pos < end && line[pos] == '.') {
            pos++;
            if (pos >= end || !digit(line[pos])) {
                return -1;
            }
            while (pos < end && digit(line[pos])) {
                pos++;
            }
        }
        if (pos < end && (line[pos] == 'e' || line[pos] == 'E')) {
            pos++;
            if (pos < end && (line[pos] == '+' || line[pos] == '-')) {
                pos++;
            }
            if (pos >= end || !digit(line[pos])) {
                return -1;
            }
            while (pos < end && digit(line[pos])) {
                pos++;
            }
        }
        if (pos - start > MAX_NUMBER_LENGTH) {
            return -1;
        }
        // Jackson needs a separator after a number: a letter right after it is an error
        if (pos < end && (line[pos] == '_' || line[pos] >= 'a' && line[pos] <= 'z'
                || line[pos] >= 'A' && line[pos] <= 'Z' || digit(line[pos]) || line[pos] < 0)) {
            return -1;
        }
        return LITERAL;
    }

    private boolean matches(String word) {
        int n = word.length();
        if (pos + n > end) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (line[pos + i] != word.charAt(i)) {
                return false;
            }
        }
        int after = pos + n;
        if (after < end && (Character.isLetterOrDigit(line[after]) || line[after] == '_' || line[after] < 0)) {
            return false; // "truex": Jackson reads it as an unrecognized token
        }
        pos = after;
        return true;
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
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

    /** A JSON string's content [start, end) unescaped, or null when an escape is not valid. */
    static String unescape(byte[] line, int start, int end) {
        StringBuilder sb = new StringBuilder(end - start);
        int i = start;
        int plain = start;
        while (i < end) {
            if (line[i] != '\\') {
                i++;
                continue;
            }
            sb.append(new String(line, plain, i - plain, StandardCharsets.UTF_8));
            if (i + 1 >= end) {
                return null;
            }
            byte e = line[i + 1];
            switch (e) {
                case '"', '\\', '/' -> sb.append((char) e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (i + 6 > end) {
                        return null;
                    }
                    sb.append((char) Integer.parseInt(new String(line, i + 2, 4, StandardCharsets.US_ASCII), 16));
                    i += 4;
                }
                default -> {
                    return null;
                }
            }
            i += 2;
            plain = i;
        }
        sb.append(new String(line, plain, end - plain, StandardCharsets.UTF_8));
        return sb.toString();
    }
}
