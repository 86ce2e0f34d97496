package io.logbloom.logql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * A cursor over a block's tokenized line column (each line a sequence of runs of one byte class — ASCII digits,
 * ASCII letters and '_', everything else — stored as per-block dictionary ids or, for canonical decimals, as
 * numbers), read row by row without rebuilding the lines, for {@link ColumnarPipeline} stages that need only a few
 * fields of each line.
 *
 * <p>Format (owned by the chunks module's tokenized line encoding): token {@code id}'s bytes are
 * {@code dictionary[starts[id], starts[id] + lengths[id])}; {@code codes} holds per line uvarint codes, 0 = the
 * next number, 1 = end of line, k = token k - 2; {@code numbers} holds uvarints in order of use, each standing for
 * its canonical decimal text.
 *
 * <p>The skeleton: {@link #walkLogfmt} reads a row and walks it as if it were a short byte string in which every
 * <em>plain</em> token (a number, or a token holding none of the bytes a logfmt walk stops at: ASCII space and
 * controls, {@code =}, {@code "}, {@code \}) is one placeholder byte {@code 'a'}, and every other token is its own
 * bytes. A logfmt walk ({@link LogfmtBytes}) on that skeleton meets the same separators in the same order as on the
 * line: every loop of the walk treats a run of non-separator bytes alike whatever its length, and an escape that
 * skips one byte of a plain token leaves only non-separator bytes of it, which the walk then passes as it would have
 * passed the placeholder. So the pairs it reports are the line's, their bounds falling on token boundaries or inside
 * copied tokens; {@link #append} maps a skeleton range back to the line's bytes. The skeleton is never written: the
 * walk steps once per plain token and once per byte of the others, as the codes are decoded, its state in locals,
 * and a key or value that is one whole token is handed over by id ({@link #pairKeyId}, {@link #number}), so a label
 * filter on a number token compares the decoded number without any bytes being rebuilt.
 *
 * <p>A malformed column (a code outside the dictionary, a truncated varint) throws {@link UncheckedIOException}
 * as a damaged block does. Not thread-safe: one cursor per block scan.
 */
public final class TokenizedLines {
    private static final byte UNKNOWN = 0;
    private static final byte PLAIN = 1;
    private static final byte COPIED = 2;
    /** Beside {@link #PLAIN}: the token holds "error", so a key holding it may sanitise to {@code __error__}. */
    private static final byte ERRORISH = 4;
    /** Per byte value: whether a logfmt walk stops at it (ASCII space and controls, '=', '"', '\\'). */
    private static final boolean[] STOPS = new boolean[256];

    static {
        for (int b = 0; b <= ' '; b++) {
            STOPS[b] = true;
        }
        STOPS['='] = true;
        STOPS['"'] = true;
        STOPS['\\'] = true;
    }

    // the logfmt walk's states (see LogfmtBytes.walk): between pairs, in a key, after '=', in a quoted value, after
    // a backslash in one, right after its closing quote, in an unquoted value, skipping a bad token (tracking
    // quotes), after a backslash there; ended (malformed, stopped, or no sink); the sink stopped it (pair's answer);
    // malformed at the line's end
    private static final int W_SPACE = 0;
    private static final int W_KEY = 1;
    private static final int W_EQUALS = 2;
    private static final int W_QUOTED = 3;
    private static final int W_QUOTED_ESCAPE = 4;
    private static final int W_AFTER_QUOTE = 5;
    private static final int W_VALUE = 6;
    private static final int W_SKIP = 7;
    private static final int W_SKIP_ESCAPE = 8;
    private static final int W_ENDED = 9;
    private static final int W_STOPPED = 10;
    private static final int W_MALFORMED = 11;
    /** The sink is satisfied: the rest of the row is only read, unless a token may start an error key. */
    private static final int W_TAIL = 12;

    private final byte[] dictionary;
    private final int[] starts;
    private final int[] lengths;
    private final byte[] codes;
    private final byte[] numbers;
    private final int rows;
    /** Per token id: {@link #UNKNOWN}, {@link #PLAIN} (maybe with {@link #ERRORISH}) or {@link #COPIED}, on first sight. */
    private final byte[] plain;
    /** Per token id, on first need: {@link #UNKNOWN}, {@link #PLAIN} (no backslash) or {@link #COPIED} (one). */
    private byte[] backslash;
    private int codeAt;
    private int numberAt;
    /** The row {@link #readRow} reads next. */
    private int row;

    // the row read last: per token, its dictionary id (or -1 - the position of its varint in numbers) and where
    // it starts in the skeleton
    private int[] tokenIds = new int[64];
    private int[] tokenSkeleton = new int[64];
    private int tokenCount;
    /** The token {@link #tokenAt} answered last. */
    private int lastToken;
    private int skeletonLength;
    /** Line bytes of skeleton ranges {@link #append}ed for the row read last. */
    private byte[] values = new byte[64];
    private int valuesLength;
    private byte[] scratch = new byte[32];
    private final byte[] digits = new byte[20];
    /** The row tokens the reported pair's key and value are exactly (-1: not one whole token). */
    private int pairKeyToken;
    private int pairValueToken;

    /** A cursor at the first row of the column with these sections (see the class comment for the format). */
    public TokenizedLines(byte[] dictionary, int[] starts, int[] lengths, byte[] codes, byte[] numbers, int rows) {
        if (starts.length != lengths.length) {
            throw new IllegalArgumentException("starts and lengths differ in length");
        }
        this.dictionary = dictionary;
        this.starts = starts;
        this.lengths = lengths;
        this.codes = codes;
        this.numbers = numbers;
        this.rows = rows;
        this.plain = new byte[starts.length];
    }

    /** The row {@link #readRow} reads next. */
    public int row() {
        return row;
    }

    /** Skips rows until {@link #row()} is {@code target}. */
    public void skipTo(int target) {
        while (row < target) {
            skipRowWithout(-1, false);
        }
    }

    /**
     * The first byte of the row {@link #readRow} reads next, without reading it; -1 when that row is empty, -2 when
     * its first token is empty (a damaged column: read the row to know). A pipeline with {@code json} asks it to tell
     * a line that opens no JSON from one it must rebuild.
     */
    int firstByte() {
        checkRow();
        int rowCodeAt = codeAt;
        int c = nextCode();
        codeAt = rowCodeAt;
        if (c == 1) {
            return -1;
        }
        if (c >= 2) {
            return lengths[c - 2] == 0 ? -2 : dictionary[starts[c - 2]] & 0xFF;
        }
        return digits[digits.length - printNumberAt(numberAt)];
    }

    /**
     * Reads the next row and returns true when it holds no token {@code id} (-1: the block's dictionary lacks the
     * token, so no row holds it) and, with {@code orBackslash}, no token holding a backslash (a JSON escape may spell
     * the token's bytes); otherwise leaves the row unread and returns false.
     */
    boolean skipRowWithout(int id, boolean orBackslash) {
        checkRow();
        int rowCodeAt = codeAt;
        int rowNumberAt = numberAt;
        int code = id < 0 ? -1 : id + 2;
        while (true) {
            int c = nextCode();
            if (c == 1) {
                break;
            }
            if (c == code || orBackslash && c >= 2 && holdsBackslash(c - 2)) {
                codeAt = rowCodeAt;
                numberAt = rowNumberAt;
                return false;
            }
            if (c == 0) {
                numberAt = skipVarint(numbers, numberAt);
            }
        }
        row++;
        return true;
    }

    /** Whether dictionary token {@code id} holds a backslash (classified once per block). */
    private boolean holdsBackslash(int id) {
        if (backslash == null) {
            backslash = new byte[starts.length];
        }
        if (backslash[id] == UNKNOWN) {
            byte found = PLAIN;
            for (int i = starts[id], end = i + lengths[id]; i < end; i++) {
                if (dictionary[i] == '\\') {
                    found = COPIED;
                    break;
                }
            }
            backslash[id] = found;
        }
        return backslash[id] == COPIED;
    }

    /** Reads the next row: its tokens and their skeleton positions (numbers are decoded only where a range is read). */
    void readRow() {
        walkLogfmt(false, null);
    }

    /**
     * Reads the next row and, unless {@code sink} is null, runs the {@link LogfmtBytes} walk over its skeleton in the
     * same pass: each plain token is one step of the walk, each other token steps once per byte, and nothing is
     * copied. The pairs reported are {@link LogfmtBytes#walk}'s on the row's line, as skeleton ranges (the line
     * bytes a sink's {@code line} argument would hold are never written: read ranges through {@link #append} or
     * {@link #scratch}). Once the walk ends (malformed, or the sink stops it) the rest of the row is still read.
     *
     * @return {@link LogfmtBytes#DONE}, {@link LogfmtBytes#STOPPED} or {@link LogfmtBytes#MALFORMED} (DONE when
     *     {@code sink} is null)
     */
    int walkLogfmt(boolean strict, LogfmtBytes.Sink sink) {
        return walkLogfmt(strict, sink, null);
    }

    /**
     * {@link #walkLogfmt(boolean, LogfmtBytes.Sink)} that, when not strict, stops walking between pairs once
     * {@code satisfied} says the sink needs no more pairs but one whose key sanitises to {@code __error__}: the rest
     * of the row is then only read, and should a token of it hold "error" the row is walked again from its start
     * with every pair reported (so the sink must take a pair it saw before as it did the first time).
     */
    int walkLogfmt(boolean strict, LogfmtBytes.Sink sink, BooleanSupplier satisfied) {
        checkRow();
        int rowCodeAt = codeAt;
        int rowNumberAt = numberAt;
        boolean early = satisfied != null && !strict && sink != null;
        int t = 0;
        int sk = 0;
        int[] ids = tokenIds;
        int[] at = tokenSkeleton;
        lastToken = 0;
        valuesLength = 0;
        skeletonLength = -1; // no range ends at the skeleton's end before the row is read
        byte[] d = dictionary;
        // the walk's state in locals (see the W_ constants), the open pair's bounds and first tokens
        int state = sink == null ? W_ENDED : W_SPACE;
        int status = LogfmtBytes.DONE;
        int keyStart = 0;
        int keyEnd = 0;
        int valueStart = 0;
        int valueEnd = 0;
        int keyToken = -1;
        int valueToken = -1;
        boolean escaped = false;
        boolean quoted = false;
        while (true) {
            int c = nextCode();
            if (c == 1) {
                break;
            }
            if (t == ids.length) {
                ids = tokenIds = Arrays.copyOf(ids, t * 2);
                at = tokenSkeleton = Arrays.copyOf(at, t * 2);
            }
            int length = 1;
            int from = -1; // the token's bytes in the dictionary, or -1 for a placeholder
            byte kind = PLAIN;
            if (c == 0) {
                ids[t] = -1 - numberAt;
                numberAt = skipVarint(numbers, numberAt);
            } else {
                int id = c - 2;
                ids[t] = id;
                kind = plain[id];
                if (kind == UNKNOWN) {
                    kind = plain[id] = classify(id);
                }
                if (kind == COPIED) {
                    length = lengths[id];
                    from = starts[id];
                }
            }
            int token = t;
            at[t++] = sk;
            tokenCount = t;
            if (early && state == W_SPACE && satisfied.getAsBoolean()) {
                state = W_TAIL;
            }
            if (state >= W_ENDED) {
                if (state == W_TAIL && (kind & ERRORISH) != 0) {
                    codeAt = rowCodeAt;
                    numberAt = rowNumberAt;
                    return walkLogfmt(false, sink, null);
                }
            } else if (from < 0) {
                // a placeholder, a run of non-separator bytes: it starts a key or value, or passes as one byte
                switch (state) {
                    case W_SPACE -> {
                        keyStart = sk;
                        keyToken = token;
                        state = W_KEY;
                    }
                    case W_EQUALS -> {
                        valueStart = sk;
                        valueToken = token;
                        state = W_VALUE;
                    }
                    case W_AFTER_QUOTE -> {
                        if (strict) {
                            status = LogfmtBytes.MALFORMED;
                            state = W_ENDED;
                        } else {
                            state = W_SKIP;
                            quoted = false;
                        }
                    }
                    case W_QUOTED_ESCAPE -> state = W_QUOTED;
                    case W_SKIP_ESCAPE -> state = W_SKIP;
                    default -> {
                        // a key, value, quoted value or skipped token goes on
                    }
                }
            } else {
                for (int i = from, end = from + length, p = sk; i < end && state != W_ENDED; i++, p++) {
                    byte b = d[i];
                    boolean again = true;
                    while (again) {
                        again = false;
                        switch (state) {
                            case W_SPACE -> {
                                if (!space(b)) {
                                    keyStart = p;
                                    keyToken = p == at[token] ? token : -1;
                                    state = W_KEY;
                                    again = true;
                                }
                            }
                            case W_KEY -> {
                                if (space(b) || b == '=' || b == '"') {
                                    keyEnd = p;
                                    if (p == keyStart || b == '"') {
                                        if (strict) {
                                            status = LogfmtBytes.MALFORMED;
                                            state = W_ENDED;
                                        } else {
                                            state = W_SKIP;
                                            quoted = false;
                                            again = true;
                                        }
                                    } else if (space(b)) {
                                        state = pair(sink, keyStart, p, p, p, false, true, keyToken, -1);
                                    } else {
                                        state = W_EQUALS;
                                    }
                                }
                            }
                            case W_EQUALS -> {
                                if (space(b)) {
                                    state = pair(sink, keyStart, keyEnd, p, p, false, false, keyToken, -1);
                                } else if (b == '"') {
                                    valueStart = p + 1;
                                    escaped = false;
                                    state = W_QUOTED;
                                } else {
                                    valueStart = p;
                                    valueToken = p == at[token] ? token : -1;
                                    state = W_VALUE;
                                    again = true;
                                }
                            }
                            case W_QUOTED -> {
                                if (b == '\\') {
                                    escaped = true;
                                    state = W_QUOTED_ESCAPE;
                                } else if (b == '"') {
                                    valueEnd = p;
                                    state = W_AFTER_QUOTE;
                                }
                            }
                            case W_QUOTED_ESCAPE -> state = W_QUOTED;
                            case W_AFTER_QUOTE -> {
                                if (space(b)) {
                                    state = pair(sink, keyStart, keyEnd, valueStart, valueEnd, escaped, false,
                                            keyToken, -1);
                                } else if (strict) {
                                    status = LogfmtBytes.MALFORMED;
                                    state = W_ENDED;
                                } else {
                                    state = W_SKIP;
                                    quoted = false;
                                    again = true;
                                }
                            }
                            case W_VALUE -> {
                                if (space(b)) {
                                    state = pair(sink, keyStart, keyEnd, valueStart, p, false, false, keyToken,
                                            valueToken);
                                } else if (strict && (b == '"' || b == '=')) {
                                    status = LogfmtBytes.MALFORMED;
                                    state = W_ENDED;
                                }
                            }
                            case W_SKIP -> {
                                if (b == '"') {
                                    quoted = !quoted;
                                } else if (b == '\\' && quoted) {
                                    state = W_SKIP_ESCAPE;
                                } else if (space(b) && !quoted) {
                                    state = W_SPACE;
                                }
                            }
                            case W_SKIP_ESCAPE -> state = W_SKIP;
                            default -> throw new IllegalStateException("BUG: logfmt walk state " + state);
                        }
                    }
                    if (state == W_STOPPED) {
                        status = LogfmtBytes.STOPPED;
                        state = W_ENDED;
                    }
                }
            }
            sk += length;
        }
        tokenCount = t;
        skeletonLength = sk;
        row++;
        // at the line's end a pair still open is reported as LogfmtBytes.walk does
        int last = switch (state) {
            case W_KEY -> pair(sink, keyStart, sk, sk, sk, false, true, keyToken, -1);
            case W_EQUALS -> pair(sink, keyStart, keyEnd, sk, sk, false, false, keyToken, -1);
            case W_AFTER_QUOTE -> pair(sink, keyStart, keyEnd, valueStart, valueEnd, escaped, false, keyToken, -1);
            case W_VALUE -> pair(sink, keyStart, keyEnd, valueStart, sk, false, false, keyToken, valueToken);
            case W_QUOTED, W_QUOTED_ESCAPE -> strict ? W_MALFORMED : W_SPACE;
            default -> W_SPACE;
        };
        return last == W_STOPPED ? LogfmtBytes.STOPPED : last == W_MALFORMED ? LogfmtBytes.MALFORMED : status;
    }

    /** Reports a pair to {@code sink}; returns the walk's next state: between pairs, or stopped. */
    private int pair(LogfmtBytes.Sink sink, int keyStart, int keyEnd, int valueStart, int valueEnd, boolean escaped,
            boolean standalone, int keyToken, int valueToken) {
        pairKeyToken = wholeToken(keyToken, keyEnd);
        pairValueToken = valueStart == valueEnd ? -1 : wholeToken(valueToken, valueEnd);
        return sink.pair(null, keyStart, keyEnd, valueStart, valueEnd, escaped, standalone) ? W_SPACE : W_STOPPED;
    }

    private static boolean space(byte b) {
        return b >= 0 && b <= ' ';
    }

    /** {@code t} when the range from its start to {@code end} is exactly row token {@code t}, else -1. */
    private int wholeToken(int t, int end) {
        if (t < 0) {
            return -1;
        }
        int next = t + 1 < tokenCount ? tokenSkeleton[t + 1] : skeletonLength; // -1 while the row is being read
        return next == end ? t : -1;
    }

    /**
     * The dictionary id of the key of the pair the walk reports (valid during {@link LogfmtBytes.Sink#pair}) when the
     * key is exactly one dictionary token, else -1.
     */
    int pairKeyId() {
        return pairKeyToken < 0 ? -1 : Math.max(-1, tokenIds[pairKeyToken]);
    }

    /**
     * The row token the value of the pair the walk reports is exactly (valid during {@link LogfmtBytes.Sink#pair}),
     * else -1 (also for a quoted or empty value).
     */
    int pairValueToken() {
        return pairValueToken;
    }

    /**
     * The number row token {@code t} of the row read last stands for when it is a number token below 10^15 (exact
     * as a double), else {@link Long#MIN_VALUE}.
     */
    long number(int t) {
        int id = tokenIds[t];
        if (id >= 0) {
            return Long.MIN_VALUE;
        }
        long value = varint(numbers, -1 - id);
        return value >= 0 && value < EXACT_BELOW ? value : Long.MIN_VALUE;
    }


    /**
     * Reads the next row and returns true when no logfmt walk of it (not strict) can give key {@code keyId} a
     * value that {@code keeps} accepts, nor meet a key that lands on {@code __error__}: every occurrence of token
     * {@code keyId} is followed by token {@code equalsId}, a number {@code keeps} refuses and a token starting with
     * an ASCII space or control byte (or the row's end), and no token holds "error" unless the token before it ends
     * with '=' (after an '=' byte a walk is in a value, a quoted value or a skipped run, never in a key: an '='
     * ends a key, and one where a key would start begins a skip). Any pair whose key is that
     * token is then one of those occurrences with the number as its whole value, whatever quotes come before it;
     * a row without the token has no such key. Otherwise leaves the row unread and returns false, and the caller
     * walks it. {@code keyId} or {@code equalsId} is -1 when the block's dictionary lacks that token.
     */
    boolean skipRowUnlessKeyNumber(int keyId, int equalsId, java.util.function.LongPredicate keeps) {
        checkRow();
        int rowCodeAt = codeAt;
        int rowNumberAt = numberAt;
        int keyCode = keyId < 0 ? -1 : keyId + 2;
        int equalsCode = equalsId < 0 ? -1 : equalsId + 2;
        int expect = 0; // 0: any token; 1: the '=' token; 2: a number; 3: a token starting with a space
        boolean afterEquals = false; // the previous token ends with '='
        while (true) {
            int c = nextCode();
            if (c == 1) {
                if (expect == 0 || expect == 3) {
                    row++;
                    return true;
                }
                break;
            }
            if (c == 0) {
                afterEquals = false;
                if (expect == 2) {
                    long value = varint(numbers, numberAt);
                    if (value < 0 || keeps.test(value)) {
                        break;
                    }
                    expect = 3;
                } else if (expect == 0 || expect == 3) {
                    expect = 0;
                } else {
                    break;
                }
                numberAt = skipVarint(numbers, numberAt);
                continue;
            }
            int id = c - 2;
            byte kind = plain[id];
            if (kind == UNKNOWN) {
                kind = plain[id] = classify(id);
            }
            if ((kind & ERRORISH) != 0 && !afterEquals) {
                break; // it may be in a key; right after '=' a walk is never in one (a value, a quote or a skip)
            }
            afterEquals = lengths[id] > 0 && dictionary[starts[id] + lengths[id] - 1] == '=';
            if (expect == 1) {
                if (c != equalsCode) {
                    break;
                }
                expect = 2;
            } else if (expect == 2) {
                break;
            } else {
                if (expect == 3) {
                    // a damaged column may hold an empty token at the dictionary's end: test the length first
                    if (lengths[id] == 0 || dictionary[starts[id]] < 0 || dictionary[starts[id]] > ' ') {
                        break;
                    }
                }
                expect = c == keyCode ? 1 : 0;
            }
        }
        codeAt = rowCodeAt;
        numberAt = rowNumberAt;
        return false;
    }

    /** {@link #keyNumber}: the row was left unread, a walk must answer. */
    static final long UNSURE = -1;
    /** {@link #keyNumber}: no pair of the row has the key. */
    static final long ABSENT = -2;
    /** Numbers from here up are not all exact as doubles: {@link #number} and {@link #keyNumber} leave them. */
    private static final long EXACT_BELOW = 1_000_000_000_000_000L;

    /**
     * Reads the next row and returns the value of the first pair a logfmt walk (not strict) would report with key
     * token {@code keyId}, or {@link #ABSENT}, when that is certain on the tokens alone and no key of the row can
     * land on {@code __error__}: no token holds "error" unless the token before it ends with '='; the key's first
     * occurrence (if any) comes before any '"' of the row, at the row's start or after a token ending with an ASCII
     * space or control byte (where a walk without quotes behind it is always between pairs), and is followed by
     * token {@code equalsId}, a number below 10^15 and a token starting with a space or control byte (or the
     * row's end). Otherwise leaves the row unread and returns {@link #UNSURE}. Ids are -1 when the block's
     * dictionary lacks the token.
     */
    long keyNumber(int keyId, int equalsId) {
        checkRow();
        int rowCodeAt = codeAt;
        int rowNumberAt = numberAt;
        int keyCode = keyId < 0 ? -1 : keyId + 2;
        int equalsCode = equalsId < 0 ? -1 : equalsId + 2;
        long found = ABSENT;
        long candidate = 0;
        int expect = 0; // 0: any token; 1: the '=' token; 2: a number; 3: a token starting with a space
        boolean quoted = false; // a '"' came before
        boolean afterSpace = true; // between pairs: the row's start or after a space, no quote before
        boolean afterEquals = false;
        while (true) {
            int c = nextCode();
            if (c == 1) {
                if (expect == 0 || expect == 3) {
                    row++;
                    return expect == 3 ? candidate : found;
                }
                break;
            }
            if (c == 0) {
                if (expect == 2) {
                    long value = varint(numbers, numberAt);
                    if (value < 0 || value >= EXACT_BELOW) {
                        break;
                    }
                    candidate = value;
                    expect = 3;
                } else if (expect != 0) {
                    break;
                }
                numberAt = skipVarint(numbers, numberAt);
                afterSpace = false;
                afterEquals = false;
                continue;
            }
            int id = c - 2;
            byte kind = plain[id];
            if (kind == UNKNOWN) {
                kind = plain[id] = classify(id);
            }
            if ((kind & ERRORISH) != 0 && !afterEquals) {
                break;
            }
            int from = starts[id];
            int length = lengths[id];
            if (expect == 1) {
                if (c != equalsCode) {
                    break;
                }
                expect = 2;
            } else if (expect == 2) {
                break;
            } else {
                if (expect == 3) {
                    int first = length == 0 ? '"' : dictionary[from];
                    if (first < 0 || first > ' ') {
                        break;
                    }
                    found = candidate;
                    expect = 0;
                }
                if (found == ABSENT && c == keyCode) {
                    if (quoted || !afterSpace) {
                        break;
                    }
                    expect = 1;
                }
            }
            if (kind == COPIED && !quoted) {
                for (int i = from; i < from + length; i++) {
                    quoted |= dictionary[i] == '"';
                }
            }
            byte last = length == 0 ? 0 : dictionary[from + length - 1];
            afterSpace = last >= 0 && last <= ' ';
            afterEquals = last == '=';
        }
        codeAt = rowCodeAt;
        numberAt = rowNumberAt;
        return UNSURE;
    }

    /** Classifies token {@code id} (once per block: distinct tokens can hold a large share of a block's bytes). */
    private byte classify(int id) {
        byte[] d = dictionary;
        for (int i = starts[id], end = i + lengths[id]; i < end; i++) {
            if (STOPS[d[i] & 0xFF]) {
                return COPIED;
            }
        }
        for (int i = starts[id], end = i + lengths[id] - 4; i < end; i++) {
            if (d[i] == 'e' && d[i + 1] == 'r' && d[i + 2] == 'r' && d[i + 3] == 'o' && d[i + 4] == 'r') {
                return (byte) (PLAIN | ERRORISH);
            }
        }
        return PLAIN;
    }

    /** The length of the row read last's skeleton. */
    int skeletonLength() {
        return skeletonLength;
    }

    /** The UTF-8 length of the row read last. */
    int rowLength() {
        int n = 0;
        for (int t = 0; t < tokenCount; t++) {
            n += tokenSize(t);
        }
        return n;
    }

    /**
     * The row token skeleton position {@code p} falls in (the last token starting at or before it). A walk asks in
     * increasing order, so the search steps forward from the last answer and falls back to bisection otherwise.
     */
    private int tokenAt(int p) {
        int t = lastToken;
        if (t >= tokenCount || tokenSkeleton[t] > p) {
            int i = Arrays.binarySearch(tokenSkeleton, 0, tokenCount, p);
            t = i >= 0 ? i : -i - 2;
        } else {
            while (t + 1 < tokenCount && tokenSkeleton[t + 1] <= p) {
                t++;
            }
        }
        lastToken = t;
        return t;
    }

    /** The dictionary holding token bytes. */
    byte[] dictionary() {
        return dictionary;
    }

    /** Where token {@code id}'s bytes start in {@link #dictionary()}. */
    int tokenStart(int id) {
        return starts[id];
    }

    /** Token {@code id}'s length. */
    int tokenLength(int id) {
        return lengths[id];
    }

    /** The number of dictionary tokens. */
    int tokens() {
        return starts.length;
    }

    /** Appends the line bytes of skeleton range [{@code from}, {@code to}) to {@link #values()}; returns their start. */
    int append(int from, int to) {
        int at = valuesLength;
        valuesLength = write(from, to, values, at, true);
        return at;
    }

    /** The bytes {@link #append} wrote for the row read last (reallocated as it grows: read it after appending). */
    byte[] values() {
        return values;
    }

    /** The end of the bytes {@link #append} wrote. */
    int valuesLength() {
        return valuesLength;
    }

    /** Writes the line bytes of skeleton range [{@code from}, {@code to}) to {@link #scratch()}; returns their length. */
    int scratch(int from, int to) {
        return write(from, to, null, 0, false);
    }

    /** The bytes {@link #scratch} wrote last. */
    byte[] scratch() {
        return scratch;
    }

    /**
     * Reads the next row as its line's bytes into {@link #scratch()} and returns their number, in one pass over its
     * codes as a column's rebuild does; the row's tokens are not kept, so no range, walk or length of it follows.
     */
    int readRowBytes() {
        checkRow();
        byte[] out = scratch;
        byte[] d = dictionary;
        int n = 0;
        while (true) {
            int c = nextCode();
            if (c == 1) {
                break;
            }
            int from;
            int length;
            byte[] source;
            if (c == 0) {
                length = printNumberAt(numberAt);
                numberAt = skipVarint(numbers, numberAt);
                from = digits.length - length;
                source = digits;
            } else {
                from = starts[c - 2];
                length = lengths[c - 2];
                source = d;
            }
            if (n + length > out.length) {
                out = scratch = Arrays.copyOf(out, Math.max(n + length, out.length * 2));
            }
            if (length <= 16) { // tokens are short: a loop beats arraycopy's setup
                for (int k = 0; k < length; k++) {
                    out[n + k] = source[from + k];
                }
            } else {
                System.arraycopy(source, from, out, n, length);
            }
            n += length;
        }
        row++;
        tokenCount = 0; // the row's tokens were not kept
        skeletonLength = 0;
        lastToken = 0;
        valuesLength = 0;
        return n;
    }

    /** The row read last, decoded. */
    String line() {
        byte[] out = new byte[rowLength()];
        int n = 0;
        for (int t = 0; t < tokenCount; t++) {
            n = copyToken(t, 0, -1, out, n);
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    private int write(int from, int to, byte[] target, int at, boolean toValues) {
        if (from == to) {
            return toValues ? at : 0; // also at the skeleton's end, which maps to no token
        }
        int token = tokenAt(from);
        int offset = from - tokenSkeleton[token]; // 0 for a placeholder: a range never starts inside one
        int endToken = to == skeletonLength ? tokenCount : tokenAt(to);
        int endOffset = to == skeletonLength ? 0 : to - tokenSkeleton[endToken];
        int size = 0;
        for (int t = token; t <= endToken && t < tokenCount; t++) {
            size += tokenSize(t);
        }
        byte[] out = toValues ? target : scratch;
        if (at + size > out.length) {
            out = Arrays.copyOf(out, Math.max(at + size, out.length * 2));
            if (toValues) {
                values = out;
            } else {
                scratch = out;
            }
        }
        int n = at;
        for (int t = token; t < endToken || t == endToken && offset < endOffset; t++, offset = 0) {
            n = copyToken(t, offset, t == endToken ? endOffset : -1, out, n);
        }
        return toValues ? n : n - at;
    }

    private int tokenSize(int t) {
        int id = tokenIds[t];
        return id >= 0 ? lengths[id] : printNumber(t);
    }

    /** Prints row token {@code t}, a number, into the end of {@link #digits}; returns its digit count. */
    private int printNumber(int t) {
        return printNumberAt(-1 - tokenIds[t]);
    }

    /** Prints the number whose varint starts at {@code at} of the numbers section into the end of {@link #digits}. */
    private int printNumberAt(int at) {
        long value = varint(numbers, at);
        if (value < 0) {
            throw malformed("a number exceeds 18 digits");
        }
        int k = digits.length;
        do {
            digits[--k] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
        return digits.length - k;
    }

    /** Copies row token {@code t}'s bytes [{@code from}, {@code to}) ({@code to} -1: its end) to {@code out[n]}. */
    private int copyToken(int t, int from, int to, byte[] out, int n) {
        int id = tokenIds[t];
        if (id >= 0) {
            int end = to < 0 ? lengths[id] : to;
            System.arraycopy(dictionary, starts[id] + from, out, n, end - from);
            return n + end - from;
        }
        int count = printNumber(t);
        int end = to < 0 ? count : to;
        System.arraycopy(digits, digits.length - count + from, out, n, end - from);
        return n + end - from;
    }

    private void checkRow() {
        if (row >= rows) {
            throw new IllegalStateException("BUG: read past the column's " + rows + " rows");
        }
    }

    /** The next code of the current row; a token code is checked against the dictionary. */
    private int nextCode() {
        byte[] section = codes;
        int at = codeAt;
        if (at >= section.length) {
            throw malformed("codes end before row " + row + " does");
        }
        int b = section[at++];
        long c = b;
        if (b < 0) { // a multi-byte varint: ids of dictionaries over 126 tokens
            c = b & 0x7F;
            for (int shift = 7;; shift += 7) {
                if (at >= section.length || shift > 28) {
                    throw malformed("truncated or overlong varint");
                }
                b = section[at++];
                c |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    break;
                }
            }
        }
        codeAt = at;
        if (c - 2 >= starts.length) {
            throw malformed("token id " + (c - 2) + " outside the " + starts.length + "-token dictionary");
        }
        return (int) c;
    }

    private long varint(byte[] section, int at) {
        long value = 0;
        for (int shift = 0; shift < 64 && at < section.length; shift += 7) {
            byte b = section[at++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw malformed("truncated or overlong varint");
    }

    private int skipVarint(byte[] section, int at) {
        for (int i = 0; i < 10 && at < section.length; i++) {
            if (section[at++] >= 0) {
                return at;
            }
        }
        throw malformed("truncated or overlong varint");
    }

    private UncheckedIOException malformed(String what) {
        return new UncheckedIOException(new IOException("tokenized line column: " + what));
    }
}
