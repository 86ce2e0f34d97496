package io.logbloom.logql;

import java.nio.charset.StandardCharsets;

/**
 * The strict JSON syntax the byte walks over a line accept ({@link JsonFlattenBytes}, {@link JsonPathBytes}): what
 * Jackson reads by default (no comments, no single quotes, no leading zeros, no control characters in strings, valid
 * escapes, a separator after a number), nesting up to {@link #MAX_DEPTH} and numbers up to {@link #MAX_NUMBER_LENGTH}
 * characters; a walk answers unsure at anything else, and its caller runs the row-at-a-time parser. The cursor is
 * {@link #pos} in {@link #line} up to {@link #end}; a string found invalid sets both to -1, which stops every loop.
 * Not thread-safe.
 */
abstract class StrictJsonBytes {
    /** A string value without escapes: the bytes between the quotes are its UTF-8. */
    static final int PLAIN = 0;
    /** A string value with escapes (the range is still escaped). */
    static final int ESCAPED = 1;
    /** A number, true or false: the range is the text. */
    static final int LITERAL = 2;
    /** null: the label's value is "". */
    static final int NULL = 3;

    /** Nesting a walk follows; deeper lines go to Jackson, whose own limit is far higher. */
    static final int MAX_DEPTH = 64;
    /** Longest number a walk accepts; Jackson's limit is 1000 digits. */
    static final int MAX_NUMBER_LENGTH = 200;
    // what follows an element of an object or array (afterElement)
    static final int MORE = 0;
    static final int CLOSED = 1;
    static final int INVALID = 2;

    byte[] line;
    int end;
    int pos;
    /** Where the name {@link #memberName} read last lies in {@link #line}, and whether it holds escapes. */
    int nameStart;
    int nameEnd;
    boolean nameEscaped;

    /** Puts the cursor at {@code offset} of {@code bytes}, the walk ending before {@code offset + length}. */
    void start(byte[] bytes, int offset, int length) {
        line = bytes;
        end = offset + length;
        pos = offset;
    }

    final void skipSpace() {
        while (pos < end && isSpace(line[pos])) {
            pos++;
        }
    }

    /** Whether byte {@code b} is JSON whitespace. */
    static boolean isSpace(int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /**
     * Reads what follows an element of an object or array: {@link #CLOSED} after {@code close}, {@link #MORE}
     * after a ',', {@link #INVALID} otherwise.
     */
    final int afterElement(byte close) {
        skipSpace();
        if (pos >= end || (line[pos] != close && line[pos] != ',')) {
            return INVALID;
        }
        return line[pos++] == close ? CLOSED : MORE;
    }

    /** The elements of an array whose '[' was read: validated and skipped. */
    final boolean array(int depth) {
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

    /**
     * After an object's '{', {@code depth} levels down: {@link #CLOSED} when it closes at once (its '}' read), {@link
     * #MORE} when members follow, {@link #INVALID} when it lies deeper than {@link #MAX_DEPTH}.
     */
    final int openObject(int depth) {
        if (depth > MAX_DEPTH) {
            return INVALID;
        }
        skipSpace();
        if (pos < end && line[pos] == '}') {
            pos++;
            return CLOSED;
        }
        return MORE;
    }

    /**
     * Reads a member's quoted name and its ':' (spaces around them), leaving the cursor at the value; the name is then
     * [{@link #nameStart}, {@link #nameEnd}) ({@link #nameEscaped} when it holds escapes). False when not valid.
     */
    final boolean memberName() {
        skipSpace();
        if (pos >= end || line[pos] != '"') {
            return false;
        }
        nameStart = ++pos;
        nameEscaped = stringEscaped();
        if (pos < 0) {
            return false;
        }
        nameEnd = pos - 1;
        skipSpace();
        if (pos >= end || line[pos] != ':') {
            return false;
        }
        pos++;
        skipSpace();
        return pos < end;
    }

    /** Skips a value at the cursor, {@code depth} levels down, validating it; false when it is not valid. */
    final boolean skipValue(int depth) {
        if (pos >= end) {
            return false;
        }
        byte c = line[pos];
        if (c == '[') {
            pos++;
            return array(depth + 1);
        }
        if (c == '{') {
            pos++;
            int open = openObject(depth);
            if (open != MORE) {
                return open == CLOSED;
            }
            while (true) {
                if (!memberName() || !skipValue(depth + 1)) {
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
    final boolean string() {
        stringEscaped();
        return pos >= 0;
    }

    /** Skips a string's content and closing quote, answering whether it held escapes; sets pos to -1 when invalid. */
    final boolean stringEscaped() {
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

    final boolean hex(int i) {
        byte c = line[i];
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /** Reads a number, true, false or null in strict JSON syntax; its kind, or -1. */
    final int literal() {
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

    final boolean matches(String word) {
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

    static boolean digit(byte c) {
        return c >= '0' && c <= '9';
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
