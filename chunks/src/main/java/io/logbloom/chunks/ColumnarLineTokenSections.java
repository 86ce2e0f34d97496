package io.logbloom.chunks;

import java.util.Arrays;

/**
 * The sections of one {@link ColumnarEncoding#LINES_TOKENIZED} line column (layout in {@link ColumnarLineTokens}),
 * each inflated on first use and then kept, so a block held in memory is inflated once however many queries
 * search it; and the literal search over them.
 *
 * <p>Search, after CLP's search on encoded logs (Rodrigues et al., OSDI 2021): the literal is split into maximal
 * runs of one byte class, as lines are. Line runs are maximal, so a literal of one run lies inside a single line
 * run, and a literal of k ≥ 2 runs covers k consecutive line runs: the first literal run a suffix of its line run,
 * the inner ones equal to whole line runs, the last a prefix. Each dictionary token gets a bit mask of the literal
 * runs it can stand for, computed once per search; a number (always a canonical digit run) gets its mask by
 * arithmetic on its value (suffix = value modulo 10^n, prefix = value over a power of ten, equality), never by
 * printing it, except for a literal that is one digit run. Before walking the rows two proofs of absence cost
 * almost nothing: a literal run that no token and no number can stand for, and an inner literal run that only a
 * number can stand for (a canonical decimal such as {@code 1110000} in {@code ts=1110000 }) whose varint is not in
 * the numbers section (one byte scan). A one-line needle thus reads the numbers section of each block and walks
 * only the block that holds it. The walk itself reads about one code byte per line run and keeps the partial
 * matches as one Shift-And state word (a table lookup, a shift and an and per run); a number is decoded only where it
 * could extend a partial match, and skipped otherwise.
 *
 * <p>Thread-safe: the inflated sections are set once under this object's lock and never change; a search keeps
 * its state in locals.
 */
final class ColumnarLineTokenSections implements ColumnarBlock.LineSearch {
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** Dictionary and codes, inflated; where the numbers section starts in the payload. */
    private record Text(int total, byte[] dictionary, int[] starts, int[] lengths, byte[] codes, int numbersAt,
            long maxSection) {}

    private final byte[] payload;
    private final int rows;
    private final String where;
    /** Guarded by this. */
    private Text text;
    /** Guarded by this. */
    private byte[] numbers;

    ColumnarLineTokenSections(byte[] payload, int rows, String where) {
        this.payload = payload;
        this.rows = rows;
        this.where = where;
    }

    private synchronized Text text() throws ChunkFormatException {
        if (text == null) {
            ByteSource in = new ByteSource(payload, 0, payload.length, where);
            int total = in.readLength(ColumnarLayout.MAX_DECODED_COLUMN_BYTES, "total line bytes");
            // every section is at most 10 bytes (a varint) per line byte or line end, plus its counts
            long maxSection = 10L * total + 10L * rows + 16;
            byte[] dictionary = ColumnarLineTokens.section(in, payload, where, "dictionary", maxSection);
            byte[] codes = ColumnarLineTokens.section(in, payload, where, "codes", maxSection);
            ByteSource dict = new ByteSource(dictionary, 0, dictionary.length, where + " dictionary");
            int count = dict.readLength(dictionary.length, "token count");
            int[] starts = new int[count];
            int[] lengths = new int[count];
            for (int t = 0; t < count; t++) {
                lengths[t] = dict.readLength(dictionary.length, "token length");
                starts[t] = dict.position();
                dict.skip(lengths[t]);
            }
            text = new Text(total, dictionary, starts, lengths, codes, in.position(), maxSection);
        }
        return text;
    }

    private synchronized byte[] numbers() throws ChunkFormatException {
        Text t = text();
        if (numbers == null) {
            ByteSource in = new ByteSource(payload, t.numbersAt(), payload.length - t.numbersAt(), where);
            byte[] section = ColumnarLineTokens.section(in, payload, where, "numbers", t.maxSection());
            if (in.hasRemaining()) {
                throw new ChunkFormatException(where + ": trailing bytes after the numbers section");
            }
            numbers = section;
        }
        return numbers;
    }

    @Override
    public ColumnarLineTokenView tokens() throws ChunkFormatException {
        Text t = text();
        return new ColumnarLineTokenView(t.dictionary(), t.starts(), t.lengths(), t.codes(), numbers(), rows);
    }

    /** The lines, rebuilt from the sections. */
    ColumnarLines decode() throws ChunkFormatException {
        Text t = text();
        byte[] numberBytes = numbers();
        byte[] dictionary = t.dictionary();
        byte[] codeBytes = t.codes();
        int[] starts = t.starts();
        int[] lengths = t.lengths();
        int count = starts.length;
        int total = t.total();
        byte[] out = new byte[total];
        int[] offsets = new int[rows + 1];
        int codeAt = 0;
        int numberAt = 0;
        int position = 0;
        byte[] digits = new byte[19];
        for (int row = 0; row < rows; row++) {
            while (true) {
                long next = nextCode(codeBytes, codeAt, row, count);
                int c = (int) (next >>> 32);
                codeAt = (int) next;
                if (c == 1) {
                    break;
                }
                if (c == 0) {
                    long value = varintAt(numberBytes, numberAt, "numbers");
                    numberAt = skipVarint(numberBytes, numberAt);
                    int n = 0;
                    if (value < 0) { // only corrupt input gets here: the writer's numbers are below 10^18
                        throw new ChunkFormatException(where + ": number " + Long.toUnsignedString(value)
                                + " exceeds 18 digits");
                    }
                    do {
                        digits[n++] = (byte) ('0' + value % 10);
                        value /= 10;
                    } while (value != 0);
                    if (n > total - position) {
                        throw overflow(total);
                    }
                    for (int d = n - 1; d >= 0; d--) {
                        out[position++] = digits[d];
                    }
                } else {
                    int id = c - 2;
                    if (lengths[id] > total - position) {
                        throw overflow(total);
                    }
                    int length = lengths[id];
                    int start = starts[id];
                    if (length <= 16) { // tokens are short: a loop beats arraycopy's setup
                        for (int k = 0; k < length; k++) {
                            out[position + k] = dictionary[start + k];
                        }
                    } else {
                        System.arraycopy(dictionary, start, out, position, length);
                    }
                    position += length;
                }
            }
            offsets[row + 1] = position;
        }
        if (position != total || codeAt != codeBytes.length || numberAt != numberBytes.length) {
            throw new ChunkFormatException(where + ": tokens rebuild " + position + " of " + total
                    + " line bytes or leave codes or numbers unused");
        }
        return new ColumnarLines(out, offsets, rows);
    }

    private ChunkFormatException overflow(int total) {
        return new ChunkFormatException(where + ": tokens rebuild more than the declared " + total + " line bytes");
    }

    /**
     * Which rows contain {@code literal} (see the class comment).
     *
     * @throws ChunkFormatException when the payload is malformed, as {@link #decode} would
     */
    @Override
    public boolean[] rowsContaining(byte[] literal) throws ChunkFormatException {
        Text t = text();
        boolean[] out = new boolean[rows];
        if (literal.length == 0) {
            Arrays.fill(out, true);
            return out;
        }
        // the literal's runs: [runStart[i], runStart[i + 1])
        int[] runStart = new int[literal.length + 1];
        int runs = 0;
        boolean digits = false;
        for (int p = 0; p < literal.length; p++) {
            digits |= ColumnarLineTokens.isDigit(literal[p]);
            if (p == 0 || ColumnarLineTokens.byteClass(literal[p]) != ColumnarLineTokens.byteClass(literal[p - 1])) {
                runStart[runs++] = p;
            }
        }
        runStart[runs] = literal.length;
        if (runs > 64) { // more runs than a mask holds: search the rebuilt lines
            ColumnarLines lines = decode();
            for (int row = 0; row < rows; row++) {
                out[row] = ColumnarLineTokens.indexOf(lines.bytes(), lines.offset(row), lines.length(row), literal) >= 0;
            }
            return out;
        }
        // per token, bit i = may stand for literal run i at its position: the first run as a suffix (contains it
        // when runs == 1), an inner run as the whole token, the last run as a prefix
        byte[] dictionary = t.dictionary();
        int count = t.starts().length;
        long[] codeMasks = new long[count + 2]; // by code: 0 (a number) and 1 (line end) stand for no run
        long tokenUnion = 0;
        for (int id = 0; id < count; id++) {
            codeMasks[id + 2] = runMask(dictionary, t.starts()[id], t.lengths()[id], literal, runStart, runs);
            tokenUnion |= codeMasks[id + 2];
        }
        long required = runs == 64 ? -1L : (1L << runs) - 1;
        DigitRuns digitRuns = digits ? DigitRuns.of(literal, runStart, runs) : null;
        long numberUnion = digitRuns == null ? 0 : digitRuns.possible;
        if (((tokenUnion | numberUnion) & required) != required) {
            return out; // some run of the literal has nothing in this block that could stand for it
        }
        byte[] numberBytes = digitRuns == null ? null : numbers();
        for (int i = 1; i < runs - 1; i++) {
            long bit = 1L << i;
            if ((tokenUnion & bit) == 0 && !containsVarint(numberBytes, digitRuns.values[i])) {
                return out; // only a number could be this inner run, and no number has its value
            }
        }
        // Shift-And (Baeza-Yates and Gonnet, 1992) over the row's line runs: bit i of state is set when the runs
        // ending here match literal runs 0..i; a number is decoded only where it could extend such a match
        byte[] codeBytes = t.codes();
        long lastBit = 1L << (runs - 1);
        byte[] printed = new byte[20];
        int codeAt = 0;
        int numberAt = 0;
        long numbersSeen = 0;
        long numbersPassed = 0;
        for (int row = 0; row < rows; row++) {
            long state = 0;
            long hit = 0;
            while (true) {
                long next = nextCode(codeBytes, codeAt, row, count);
                int c = (int) (next >>> 32);
                codeAt = (int) next;
                if (c == 1) {
                    break;
                }
                long mask = codeMasks[c];
                if (c == 0 && numberBytes != null) {
                    numbersSeen++;
                    if ((((state << 1) | 1) & numberUnion) != 0) {
                        for (; numbersPassed < numbersSeen - 1; numbersPassed++) {
                            numberAt = skipVarint(numberBytes, numberAt);
                        }
                        long value = varintAt(numberBytes, numberAt, "numbers");
                        numberAt = skipVarint(numberBytes, numberAt);
                        numbersPassed++;
                        if (value < 0) {
                            throw new ChunkFormatException(where + ": number " + Long.toUnsignedString(value)
                                    + " exceeds 18 digits");
                        }
                        mask = runs == 1 ? containsPrinted(value, printed, literal) : digitRuns.mask(value);
                    }
                }
                state = ((state << 1) | 1) & mask;
                hit |= state & lastBit;
            }
            out[row] = hit != 0;
        }
        if (numberBytes != null) {
            for (; numbersPassed < numbersSeen; numbersPassed++) {
                numberAt = skipVarint(numberBytes, numberAt);
            }
        }
        if (codeAt != codeBytes.length || (numberBytes != null && numberAt != numberBytes.length)) {
            throw new ChunkFormatException(where + ": codes or numbers left unused after " + rows + " rows");
        }
        return out;
    }

    /**
     * The code at {@code codes[at]} (0 = number, 1 = line end, else a token id + 2) and the position after it, packed
     * as {@code code << 32 | next}; a code outside the {@code count}-token dictionary is refused.
     */
    private long nextCode(byte[] codes, int at, int row, int count) throws ChunkFormatException {
        if (at >= codes.length) {
            throw new ChunkFormatException(where + ": codes end before row " + row + " does");
        }
        long c = codes[at];
        int next = at + 1;
        if (c < 0) { // multi-byte varint: rare, dictionaries are small
            c = varintAt(codes, at, "codes");
            next = skipVarint(codes, at);
        }
        if (c < 0 || c - 2 >= count) {
            throw new ChunkFormatException(where + ": token id " + (c - 2) + " outside the " + count
                    + "-token dictionary");
        }
        return c << 32 | next;
    }

    /** The uvarint starting at {@code section[at]}; {@code what} names the section in errors. */
    private long varintAt(byte[] section, int at, String what) throws ChunkFormatException {
        long value = 0;
        for (int shift = 0; shift < 64 && at < section.length; shift += 7) {
            byte b = section[at++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new ChunkFormatException(where + ": " + what + " truncated or overlong varint");
    }

    /** The position after the uvarint starting at {@code section[at]}. */
    private int skipVarint(byte[] section, int at) throws ChunkFormatException {
        for (int i = 0; i < 10 && at < section.length; i++) {
            if (section[at++] >= 0) {
                return at;
            }
        }
        throw new ChunkFormatException(where + ": truncated or overlong varint");
    }

    /** 1 when the decimal text of {@code value} contains {@code literal} (a literal of one digit run), else 0. */
    private static long containsPrinted(long value, byte[] printed, byte[] literal) {
        int k = printed.length;
        do {
            printed[--k] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
        return ColumnarLineTokens.indexOf(printed, k, printed.length - k, literal) >= 0 ? 1 : 0;
    }

    /** Whether the varint encoding of {@code value} starts at a varint boundary of {@code section}. */
    static boolean containsVarint(byte[] section, long value) {
        byte[] encoded = new byte[10];
        int n = 0;
        long v = value;
        while ((v & ~0x7FL) != 0) {
            encoded[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        encoded[n++] = (byte) v;
        byte first = encoded[0];
        int last = section.length - n;
        for (int i = 0; i <= last; i++) {
            // a varint starts at 0 or after a byte with the continuation bit clear
            if (section[i] == first && (i == 0 || section[i - 1] >= 0)
                    && Arrays.equals(section, i + 1, i + n, encoded, 1, n)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The literal's digit runs (literal of two or more runs) as values, and the mask bits a number may carry: a
     * number is a canonical decimal below 10^18, so it can end with the first run, start with the last, or equal an
     * inner run only when that run is canonical itself.
     */
    private static final class DigitRuns {
        final long possible;
        final long[] values;
        final int[] lengths;
        final int runs;

        private DigitRuns(long possible, long[] values, int[] lengths, int runs) {
            this.possible = possible;
            this.values = values;
            this.lengths = lengths;
            this.runs = runs;
        }

        static DigitRuns of(byte[] literal, int[] runStart, int runs) {
            long[] values = new long[runs];
            int[] lengths = new int[runs];
            long possible = 0;
            for (int i = 0; i < runs; i++) {
                int from = runStart[i];
                int length = runStart[i + 1] - from;
                if (!ColumnarLineTokens.isDigit(literal[from]) || length > 18) {
                    continue;
                }
                long value = 0;
                for (int p = from; p < from + length; p++) {
                    value = value * 10 + (literal[p] - '0');
                }
                values[i] = value;
                lengths[i] = length;
                if (i == 0 || i == runs - 1 || length == 1 || literal[from] != '0') {
                    possible |= 1L << i;
                }
            }
            return new DigitRuns(possible, values, lengths, runs);
        }

        /** The positional mask bits number {@code value} carries (two or more runs). */
        long mask(long value) {
            int digits = 1;
            while (digits < 19 && value >= POW10[digits]) {
                digits++;
            }
            long mask = 0;
            if ((possible & 1) != 0 && digits >= lengths[0] && value % POW10[lengths[0]] == values[0]) {
                mask |= 1;
            }
            int last = runs - 1;
            long lastBit = 1L << last;
            if ((possible & lastBit) != 0 && digits >= lengths[last]
                    && value / POW10[digits - lengths[last]] == values[last]) {
                mask |= lastBit;
            }
            for (int i = 1; i < last; i++) {
                long bit = 1L << i;
                if ((possible & bit) != 0 && value == values[i]) {
                    mask |= bit;
                }
            }
            return mask;
        }
    }

    /** The positional run mask of one line run {@code bytes[start, start + length)} against the literal's runs. */
    private static long runMask(byte[] bytes, int start, int length, byte[] literal, int[] runStart, int runs) {
        if (runs == 1) {
            return ColumnarLineTokens.indexOf(bytes, start, length, literal) >= 0 ? 1 : 0;
        }
        long mask = 0;
        int firstLength = runStart[1];
        if (length >= firstLength && Arrays.equals(bytes, start + length - firstLength, start + length, literal, 0,
                firstLength)) {
            mask |= 1;
        }
        int lastStart = runStart[runs - 1];
        int lastLength = literal.length - lastStart;
        if (length >= lastLength && Arrays.equals(bytes, start, start + lastLength, literal, lastStart,
                literal.length)) {
            mask |= 1L << (runs - 1);
        }
        for (int i = 1; i < runs - 1; i++) {
            if (Arrays.equals(bytes, start, start + length, literal, runStart[i], runStart[i + 1])) {
                mask |= 1L << i;
            }
        }
        return mask;
    }
}
