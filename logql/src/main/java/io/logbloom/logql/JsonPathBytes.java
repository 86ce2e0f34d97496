package io.logbloom.logql;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code | json label="path", …} parser (paths of object keys only) walked over a line's UTF-8 bytes: for each
 * path, where the value {@link JsonPathExtractor} gives lies, without decoding the line.
 *
 * <p>Design: a path takes the first member along it (a later member of a repeated key does not replace it), a number,
 * {@code true}, {@code false}, an object or an array its text as written ({@link #LITERAL}), a string the bytes between
 * its quotes ({@link #PLAIN}; {@link #ESCAPED} when it holds escapes, which the caller leaves to the row path). The
 * walk accepts only {@link StrictJsonBytes strict JSON} and answers {@link #UNSURE} at anything else (the row path
 * keeps what it read before a fault). Not thread-safe.
 */
final class JsonPathBytes extends StrictJsonBytes {
    /** The walk covered the object: {@link #kind}, {@link #valueStart}, {@link #valueEnd} say what a path found. */
    static final int DONE = 0;
    /** The line is not strict JSON this walk accepts, or starts with '[' or '"': the row-at-a-time parser decides. */
    static final int UNSURE = 1;
    /** The line's first byte is none of '{', '[', '"' (spaces too): the parser sets its error and no label. */
    static final int NOT_JSON = 2;
    /** The line is empty: the parser sets nothing. */
    static final int EMPTY = 3;

    /**
     * What {@link #walk} answers for a line whose first byte is {@code first} (-1: the line is empty; below that: not
     * known) without reading further: {@link #EMPTY} or {@link #NOT_JSON}, else {@link #UNSURE} (the line must be
     * read). A caller holding the line's tokens, not its bytes, rebuilds only the lines that need reading.
     */
    static int byFirstByte(int first) {
        if (first == -1) {
            return EMPTY;
        }
        return first < 0 || first == '{' || first == '[' || first == '"' ? UNSURE : NOT_JSON;
    }

    /** A path that leads to nothing, or through an array or a scalar: the label's value is "". */
    static final int MISSING = -1;

    /** Paths a walk follows (a bit each; the sign bit marks a name that does not unescape). */
    static final int MAX_PATHS = 63;

    /** Per path, its keys as UTF-8. */
    private final byte[][][] paths;
    private final int[] kind;
    private final boolean[] found;
    private final int[] valueStart;
    private final int[] valueEnd;

    /** Walks for {@code paths}, each a list of object keys from the top. */
    JsonPathBytes(List<List<String>> paths) {
        this.paths = new byte[paths.size()][][];
        for (int p = 0; p < this.paths.length; p++) {
            List<String> keys = paths.get(p);
            this.paths[p] = new byte[keys.size()][];
            for (int k = 0; k < keys.size(); k++) {
                this.paths[p][k] = keys.get(k).getBytes(StandardCharsets.UTF_8);
            }
        }
        kind = new int[paths.size()];
        found = new boolean[paths.size()];
        valueStart = new int[paths.size()];
        valueEnd = new int[paths.size()];
    }

    /** Walks the line [{@code offset}, {@code offset + length}) of {@code bytes}; {@link #DONE} or another outcome. */
    int walk(byte[] bytes, int offset, int length) {
        start(bytes, offset, length);
        Arrays.fill(kind, MISSING);
        Arrays.fill(found, false);
        int first = length == 0 ? -1 : bytes[offset] & 0xFF;
        if (first != '{') {
            return byFirstByte(first);
        }
        pos++;
        return paths.length <= MAX_PATHS && object(0, (1L << paths.length) - 1) ? DONE : UNSURE;
    }

    /**
     * Path {@code p}'s value: {@link #PLAIN}, {@link #ESCAPED}, {@link #LITERAL}, {@link #NULL} or {@link #MISSING}.
     */
    int kind(int p) {
        return kind[p];
    }

    int valueStart(int p) {
        return valueStart[p];
    }

    int valueEnd(int p) {
        return valueEnd[p];
    }

    /**
     * The members of an object whose '{' was read, {@code depth} keys down the paths in {@code active} (bit p: path p's
     * first {@code depth} keys lead here).
     */
    private boolean object(int depth, long active) {
        int open = openObject(depth);
        if (open != MORE) {
            return open == CLOSED;
        }
        while (true) {
            if (!memberName()) {
                return false;
            }
            long matched = active == 0 ? 0 : matching(depth, active, nameStart, nameEnd, nameEscaped);
            if (matched == UNREADABLE_NAME) {
                return false;
            }
            if (!value(depth, matched)) {
                return false;
            }
            int next = afterElement((byte) '}');
            if (next != MORE) {
                return next == CLOSED;
            }
        }
    }

    /** The value of a member whose key is step {@code depth} of the paths in {@code matched}. */
    private boolean value(int depth, long matched) {
        if (pos >= end) {
            return false;
        }
        long ending = 0; // paths this member's value is the value of
        for (long m = matched; m != 0; m &= m - 1) {
            int p = Long.numberOfTrailingZeros(m);
            if (paths[p].length == depth + 1) {
                ending |= 1L << p;
            }
        }
        byte c = line[pos];
        int start = pos;
        if (c == '{') {
            pos++;
            if (!object(depth + 1, matched & ~ending)) {
                return false;
            }
            mark(ending, LITERAL, start, pos);
            return true;
        }
        if (c == '[') {
            if (!skipValue(depth)) { // a deeper path through an array finds nothing: keys only
                return false;
            }
            mark(ending, LITERAL, start, pos);
            return true;
        }
        int valueKind;
        if (c == '"') {
            pos++;
            boolean escaped = stringEscaped();
            if (pos < 0) {
                return false;
            }
            mark(ending, escaped ? ESCAPED : PLAIN, start + 1, pos - 1);
            return true;
        }
        valueKind = literal();
        if (valueKind < 0) {
            return false;
        }
        mark(ending, valueKind, start, pos);
        return true;
    }

    /** Records the value of the paths of {@code paths} that have none yet (the first member along a path counts). */
    private void mark(long paths, int valueKind, int start, int stop) {
        for (long m = paths; m != 0; m &= m - 1) {
            int p = Long.numberOfTrailingZeros(m);
            if (found[p]) {
                continue;
            }
            found[p] = true;
            kind[p] = valueKind;
            valueStart[p] = start;
            valueEnd[p] = stop;
        }
    }

    /** {@link #matching} of a name that does not unescape. */
    private static final long UNREADABLE_NAME = Long.MIN_VALUE;

    /** The paths of {@code active} whose key at {@code depth} is the member name [{@code from}, {@code to}). */
    private long matching(int depth, long active, int from, int to, boolean escaped) {
        byte[] name = null;
        int nameLength = to - from;
        int nameFrom = from;
        byte[] source = line;
        if (escaped) {
            String unescaped = unescape(line, from, to);
            if (unescaped == null) {
                return UNREADABLE_NAME;
            }
            name = unescaped.getBytes(StandardCharsets.UTF_8);
            source = name;
            nameFrom = 0;
            nameLength = name.length;
        }
        long out = 0;
        for (long m = active; m != 0; m &= m - 1) {
            int p = Long.numberOfTrailingZeros(m);
            byte[][] keys = paths[p];
            if (keys.length > depth
                    && Arrays.equals(source, nameFrom, nameFrom + nameLength, keys[depth], 0, keys[depth].length)) {
                out |= 1L << p;
            }
        }
        return out;
    }
}
