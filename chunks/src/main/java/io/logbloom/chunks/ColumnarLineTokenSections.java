package io.logbloom.chunks;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The sections of one {@link ColumnarEncoding#LINES_TOKENIZED} line column (layout in {@link ColumnarLineTokens}),
 * and the literal search over them. A search either keeps the sections it inflates (a block held in a cache is then
 * inflated once however many queries search it) or, given {@link ColumnarScanBuffers}, inflates them into the
 * caller's reused arrays and keeps nothing (a scan over more blocks than a cache holds allocates almost nothing
 * per block). Either way it inflates only what the literal needs, in order of cost: the dictionary first (a block
 * whose tokens cannot stand for some run of the literal is ruled out before its codes are inflated), the numbers
 * only when the literal has a digit run, the codes last.
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
 * only the block that holds it. The walk itself reads one code byte per line run (token ids below 126 are one
 * byte) and keeps the partial matches as one Shift-And state word (a table lookup, a shift and an and per run); a
 * number is decoded only where it could extend a partial match, the numbers before it skipped in one tight loop.
 * Where no match is under way (and after a row has matched) the walk cares only about the few codes that can start
 * a match, line ends and multi-byte codes: it reads eight code bytes at a time and tests them for those values with
 * word arithmetic (SWAR, Mycroft's zero-byte test made exact), counting the numbers it passes, and steps byte by
 * byte only from the first byte of interest.
 *
 * <p>Thread-safe: the kept sections are set once under this object's lock and never change; a search keeps its
 * state in locals and in the caller's (thread-confined) scan buffers.
 */
final class ColumnarLineTokenSections {
    private static final long[] POW10 = new long[19];
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long HIGH = 0x8080808080808080L;
    private static final long ONES = 0x0101010101010101L;
    /**
     * Above this many one-byte codes that can start a match the word test costs more than it saves (each code is
     * one more test per eight bytes); the walk then goes byte by byte.
     */
    private static final int MAX_SKIP_STARTS = 4;

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** One section's stored bytes {@code payload[start, start + stored)}; {@code raw} 0 = stored plain. */
    private record Section(int start, int stored, int raw) {
        int size() {
            return raw == 0 ? stored : raw;
        }
    }

    /** The header of the payload: total line bytes and where each section lies. */
    private record Layout(int total, Section dictionary, Section codes, Section numbers, Section ranges) {}

    /** A section's bytes {@code array[from, to)}: inflated, or the stored bytes of a plain section in place. */
    private record Bytes(byte[] array, int from, int to) {}

    /** The dictionary parsed: token {@code t} is {@code bytes[starts[t], starts[t] + lengths[t])}. */
    private record Dictionary(byte[] bytes, int[] starts, int[] lengths, int count) {}

    /** Dictionary and codes, inflated and kept. */
    private record Text(Dictionary dictionary, Bytes codes) {}

    /** The payload is {@code payload[payloadFrom, payloadTo)}: a column read in place inside its block's bytes. */
    private final byte[] payload;
    private final int payloadFrom;
    private final int payloadTo;
    private final int rows;
    /** Whether the payload has the ranges section ({@link ColumnarEncoding#LINES_TOKENIZED_RANGES}). */
    private final boolean hasRanges;
    private final String where;
    /** Inflates the sections kept by this object (a search given scan buffers uses theirs). */
    private final ZstdInflater inflater;
    /** Guarded by this. */
    private Layout layout;
    /** Guarded by this. */
    private Text text;
    /** Guarded by this. */
    private Bytes numbers;
    /** Guarded by this; null until parsed, {@link #NO_RANGES} when the payload records none. */
    private ColumnarNumberRanges.Table ranges;
    private static final ColumnarNumberRanges.Table NO_RANGES = new ColumnarNumberRanges.Table(new int[0], new int[0],
            new long[0], new long[0]);

    /** Sections that inflate with a context of their own per section (one-off decodes). */
    ColumnarLineTokenSections(byte[] payload, int rows, boolean hasRanges, String where) {
        this(payload, rows, hasRanges, where, ZstdInflater.perCall());
    }

    ColumnarLineTokenSections(byte[] payload, int rows, boolean hasRanges, String where, ZstdInflater inflater) {
        this(payload, 0, payload.length, rows, hasRanges, where, inflater);
    }

    /**
     * Sections of the payload {@code payload[from, from + length)}, read where they lie (a stored line column inside
     * its block's bytes: no copy of the column before its sections are inflated).
     */
    ColumnarLineTokenSections(byte[] payload, int from, int length, int rows, boolean hasRanges, String where,
            ZstdInflater inflater) {
        java.util.Objects.checkFromIndexSize(from, length, payload.length);
        this.payload = payload;
        this.payloadFrom = from;
        this.payloadTo = from + length;
        this.rows = rows;
        this.hasRanges = hasRanges;
        this.where = where;
        this.inflater = inflater;
    }

    private synchronized Layout layout() throws ChunkFormatException {
        if (layout == null) {
            ByteSource in = new ByteSource(payload, payloadFrom, payloadTo - payloadFrom, where);
            int total = in.readLength(ColumnarLayout.MAX_DECODED_COLUMN_BYTES, "total line bytes");
            // every section is at most 10 bytes (a varint) per line byte or line end, plus its counts
            long maxSection = 10L * total + 10L * rows + 16;
            Section dictionary = section(in, "dictionary", maxSection);
            Section codes = section(in, "codes", maxSection);
            Section numbers = section(in, "numbers", maxSection);
            Section ranges = hasRanges ? section(in, "ranges", maxSection) : null;
            if (in.hasRemaining()) {
                throw new ChunkFormatException(where + ": trailing bytes after the "
                        + (hasRanges ? "ranges" : "numbers") + " section");
            }
            layout = new Layout(total, dictionary, codes, numbers, ranges);
        }
        return layout;
    }

    private Section section(ByteSource in, String name, long maxSection) throws ChunkFormatException {
        int stored = in.readLength(payloadTo - payloadFrom, name + " stored length");
        int raw = in.readLength((int) Math.min(maxSection, ColumnarLayout.MAX_DECODED_COLUMN_BYTES),
                name + " raw length");
        int start = in.position();
        in.skip(stored);
        return new Section(start, stored, raw);
    }

    /**
     * The bytes of {@code section}: a plain one in place, a compressed one inflated into {@code into} when it is
     * large enough (the caller's scratch), else into a new array; {@code zstd} is the caller's context, or null.
     */
    private Bytes bytes(Section section, byte[] into, ZstdDecompressCtx zstd, String name)
            throws ChunkFormatException {
        if (section.raw() == 0) {
            return new Bytes(payload, section.start(), section.start() + section.stored());
        }
        byte[] out = into != null && into.length >= section.raw() ? into : new byte[section.raw()];
        long n;
        try {
            n = zstd != null ? zstd.decompressByteArray(out, 0, section.raw(), payload, section.start(), section.stored())
                    : inflater.inflate(out, 0, section.raw(), payload, section.start(), section.stored());
        } catch (ZstdException e) {
            throw new ChunkFormatException(where + " " + name + " section: invalid zstd data: " + e.getMessage(), e);
        }
        if (Zstd.isError(n)) {
            throw new ChunkFormatException(where + " " + name + " section: invalid zstd data: " + Zstd.getErrorName(n));
        }
        if (n != section.raw()) {
            throw new ChunkFormatException(where + " " + name + " section: zstd inflated to " + n + " bytes, expected "
                    + section.raw());
        }
        return new Bytes(out, 0, section.raw());
    }

    /** The dictionary this object keeps, or else inflated into {@code scratch} (unless it already holds it). */
    private Dictionary scratchDictionary(ColumnarScanBuffers scratch) throws ChunkFormatException {
        if (scratch.dictionaryOf == this) {
            return new Dictionary(scratch.dictionary, scratch.tokenStarts, scratch.tokenLengths, scratch.tokenCount);
        }
        Section section = layout().dictionary();
        scratch.dictionaryOf = null;
        scratch.dictionary = ColumnarScanBuffers.atLeast(scratch.dictionary, section.size());
        Dictionary d = dictionary(bytes(section, scratch.dictionary, scratch.zstd(), "dictionary"), scratch.tokenStarts,
                scratch.tokenLengths);
        scratch.tokenStarts = d.starts();
        scratch.tokenLengths = d.lengths();
        if (d.bytes() == scratch.dictionary) {
            scratch.dictionaryOf = this;
            scratch.tokenCount = d.count();
        }
        return d;
    }

    /** The numbers section inflated into {@code scratch} (unless it already holds it), or in place when plain. */
    private Bytes scratchNumbers(ColumnarScanBuffers scratch) throws ChunkFormatException {
        Section section = layout().numbers();
        if (scratch.numbersOf == this) {
            return new Bytes(scratch.numbers, 0, section.raw());
        }
        scratch.numbersOf = null;
        scratch.numbers = ColumnarScanBuffers.atLeast(scratch.numbers, section.size());
        Bytes b = bytes(section, scratch.numbers, scratch.zstd(), "numbers");
        if (b.array() == scratch.numbers) {
            scratch.numbersOf = this;
        }
        return b;
    }

    private Dictionary dictionary(Bytes section, int[] starts, int[] lengths) throws ChunkFormatException {
        int size = section.to() - section.from();
        ByteSource dict = new ByteSource(section.array(), section.from(), size, where + " dictionary");
        int count = dict.readLength(size, "token count");
        if (starts == null || starts.length < count) {
            starts = new int[count];
            lengths = new int[count];
        }
        for (int t = 0; t < count; t++) {
            lengths[t] = dict.readLength(size, "token length");
            starts[t] = dict.position();
            dict.skip(lengths[t]);
        }
        return new Dictionary(section.array(), starts, lengths, count);
    }

    private synchronized Text text() throws ChunkFormatException {
        if (text == null) {
            Layout l = layout();
            Dictionary dictionary = dictionary(bytes(l.dictionary(), null, null, "dictionary"), null, null);
            text = new Text(dictionary, bytes(l.codes(), null, null, "codes"));
        }
        return text;
    }

    private synchronized Bytes numbers() throws ChunkFormatException {
        if (numbers == null) {
            numbers = bytes(layout().numbers(), null, null, "numbers");
        }
        return numbers;
    }

    /**
     * The ranges section parsed (once; it is a few hundred bytes), or null when the payload has none or records none;
     * {@code codeLimit} is the dictionary's token count plus 2.
     */
    private synchronized ColumnarNumberRanges.Table ranges(int codeLimit) throws ChunkFormatException {
        if (ranges == null) {
            Section section = layout().ranges();
            if (section == null) {
                ranges = NO_RANGES;
            } else {
                Bytes b = bytes(section, null, null, "ranges");
                ColumnarNumberRanges.Table table = ColumnarNumberRanges.parse(b.array(), b.from(), b.to(), codeLimit,
                        where);
                ranges = table == null ? NO_RANGES : table;
            }
        }
        return ranges == NO_RANGES ? null : ranges;
    }

    ColumnarLineTokenView tokens() throws ChunkFormatException {
        Text t = text();
        Dictionary d = t.dictionary();
        return new ColumnarLineTokenView(d.bytes(), Arrays.copyOf(d.starts(), d.count()), Arrays.copyOf(d.lengths(), d.count()),
                whole(t.codes()), whole(numbers()), rows);
    }

    /** The section's bytes as an array of their own (a plain section lies inside the payload). */
    private static byte[] whole(Bytes b) {
        return b.from() == 0 && b.to() == b.array().length ? b.array() : Arrays.copyOfRange(b.array(), b.from(), b.to());
    }

    /** The lines, rebuilt from the sections. */
    ColumnarLines decode() throws ChunkFormatException {
        Text t = text();
        Bytes numberSection = numbers();
        int total = layout().total();
        Dictionary dict = t.dictionary();
        byte[] dictionary = dict.bytes();
        byte[] codeBytes = t.codes().array();
        int codesEnd = t.codes().to();
        byte[] numberBytes = numberSection.array();
        int numbersEnd = numberSection.to();
        int[] starts = dict.starts();
        int[] lengths = dict.lengths();
        int count = dict.count();
        byte[] out = new byte[total];
        int[] offsets = new int[rows + 1];
        int codeAt = t.codes().from();
        int numberAt = numberSection.from();
        int position = 0;
        byte[] digits = new byte[19];
        for (int row = 0; row < rows; row++) {
            while (true) {
                long next = nextCode(codeBytes, codeAt, codesEnd, row, count);
                int c = (int) (next >>> 32);
                codeAt = (int) next;
                if (c == 1) {
                    break;
                }
                if (c == 0) {
                    long value = numberAt(numberBytes, numberAt, numbersEnd);
                    numberAt = skipVarint(numberBytes, numberAt, numbersEnd);
                    int n = 0;
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
        if (position != total || codeAt != codesEnd || numberAt != numbersEnd) {
            throw new ChunkFormatException(where + ": tokens rebuild " + position + " of " + total
                    + " line bytes or leave codes or numbers unused");
        }
        return new ColumnarLines(out, offsets, rows);
    }

    /**
     * The lines of the rows {@code wanted} marks (null for the others), rebuilt without copying the rest. The walk
     * stops after the last wanted row and steps over the others eight code bytes at a time ({@link #skipRow}: it
     * finds the line end and counts the number codes before it, then skips that many numbers' varints), so a
     * needle's one row costs a scan of about half its block's codes, not a rebuild of the column. Bounds are checked on
     * every code of a rebuilt row (a token id inside the dictionary, codes and numbers not ending early, a rebuilt
     * line no longer than the column); skipped rows' codes are only counted (their token ids index nothing). The
     * end-of-column checks ({@link #decode}'s: every code and number used, the rebuilt length equal to the total) run
     * only when the walk reaches the last row. A stored column's checksum is verified before it gets here, so what
     * those checks guard against is a writer's bug.
     */
    String[] lines(boolean[] wanted) throws ChunkFormatException {
        String[] out = new String[rows];
        int last = rows - 1;
        while (last >= 0 && !wanted[last]) {
            last--;
        }
        if (last < 0) {
            return out;
        }
        Text t = text();
        Bytes numberSection = numbers();
        Dictionary dict = t.dictionary();
        byte[] dictionary = dict.bytes();
        byte[] codeBytes = t.codes().array();
        int codesEnd = t.codes().to();
        byte[] numberBytes = numberSection.array();
        int numbersEnd = numberSection.to();
        int[] starts = dict.starts();
        int[] lengths = dict.lengths();
        int count = dict.count();
        int total = layout().total();
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        int codeAt = t.codes().from();
        int numberAt = numberSection.from();
        long position = 0;
        for (int row = 0; row <= last; row++) {
            if (!wanted[row]) {
                long next = skipRow(codeBytes, codeAt, codesEnd, numberBytes, numberAt, numbersEnd, row);
                codeAt = (int) (next >>> 32);
                numberAt = (int) next;
                continue;
            }
            line.reset();
            while (true) {
                long next = nextCode(codeBytes, codeAt, codesEnd, row, count);
                int c = (int) (next >>> 32);
                codeAt = (int) next;
                if (c == 1) {
                    break;
                }
                if (c == 0) {
                    long value = numberAt(numberBytes, numberAt, numbersEnd);
                    numberAt = skipVarint(numberBytes, numberAt, numbersEnd);
                    byte[] text = Long.toString(value).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    line.write(text, 0, text.length);
                } else {
                    int id = c - 2;
                    line.write(dictionary, starts[id], lengths[id]);
                }
                if (line.size() > total) {
                    throw overflow(total);
                }
            }
            position += line.size();
            out[row] = line.toString(java.nio.charset.StandardCharsets.UTF_8);
        }
        if (last == rows - 1 && (codeAt != codesEnd || numberAt != numbersEnd || position > total)) {
            throw new ChunkFormatException(where + ": tokens leave codes or numbers unused after the last row");
        }
        return out;
    }

    /**
     * Steps over row {@code row}'s codes from {@code codes[codeAt]}, and over the numbers it uses from {@code
     * numbers[numberAt]}; returns the positions after the row, packed as {@code codeAt << 32 | numberAt}. Codes are
     * read eight bytes at a time while none of the eight has its high bit set (every byte is then a one-byte code):
     * the word's first line end (1) ends the row, and the number codes (0) before it are counted with word
     * arithmetic; a word touching a multi-byte code goes byte by byte. Codes or numbers ending before the row does
     * are refused; token ids are not checked (a skipped row's ids index nothing). One call per row, not one loop over
     * the rows: the query path runs interpreted at first, and a method called per row is compiled within a block.
     */
    private long skipRow(byte[] codes, int codeAt, int codesEnd, byte[] numbers, int numberAt, int numbersEnd, int row)
            throws ChunkFormatException {
        int at = codeAt;
        int numberCodes = 0;
        while (true) {
            if (at <= codesEnd - Long.BYTES) {
                long w = (long) LONGS.get(codes, at);
                if ((w & HIGH) == 0) {
                    long ends = equalBytes(w, ONES);
                    long zeros = equalBytes(w, 0);
                    if (ends == 0) {
                        numberCodes += Long.bitCount(zeros);
                        at += Long.BYTES;
                        continue;
                    }
                    int end = Long.numberOfTrailingZeros(ends); // the high bit of the line end's byte
                    numberCodes += Long.bitCount(zeros & ((1L << end) - 1));
                    return (long) (at + (end >>> 3) + 1) << 32
                            | skipNumbers(numbers, numberAt, numbersEnd, numberCodes);
                }
            }
            if (at >= codesEnd) {
                throw new ChunkFormatException(where + ": codes end before row " + row + " does");
            }
            int c = codes[at];
            if (c == 1) {
                return (long) (at + 1) << 32 | skipNumbers(numbers, numberAt, numbersEnd, numberCodes);
            }
            if (c >= 0) {
                at++;
                if (c == 0) {
                    numberCodes++;
                }
            } else { // a multi-byte token id
                at = skipVarint(codes, at, codesEnd);
            }
        }
    }

    /**
     * The filter of the whole digit runs of these lines ({@link ColumnarNumberFilter}): every number of the numbers
     * section and every dictionary token that is a canonical decimal below 10^18. Sections this object keeps are
     * read in place; others come from {@code scratch} (null: inflated and kept), not inflated again when a search
     * just put them there.
     *
     * @throws ChunkFormatException when the numbers or the dictionary are malformed
     */
    ColumnarNumberFilter numberFilter(ColumnarScanBuffers scratch) throws ChunkFormatException {
        Text kept;
        Bytes keptNumbers;
        synchronized (this) {
            kept = text;
            keptNumbers = numbers;
        }
        if (scratch == null) {
            kept = text();
            keptNumbers = numbers();
        }
        Dictionary dictionary = kept != null ? kept.dictionary() : scratchDictionary(scratch);
        Bytes section = keptNumbers != null ? keptNumbers : scratchNumbers(scratch);
        long[] values = scratch == null ? new long[16] : scratch.values;
        int count = 0;
        byte[] bytes = section.array();
        int end = section.to();
        for (int at = section.from(); at < end;) {
            // numberAt and skipVarint in one pass: this loop reads every number of the block
            long value = 0;
            int shift = 0;
            byte b;
            do {
                if (at == end || shift == 70) {
                    throw new ChunkFormatException(where + ": numbers truncated or overlong varint");
                }
                b = bytes[at++];
                value |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            if (value < 0) {
                throw new ChunkFormatException(where + ": number " + Long.toUnsignedString(value)
                        + " exceeds 18 digits");
            }
            if (count == values.length) {
                values = java.util.Arrays.copyOf(values, Math.max(16, count * 2));
            }
            values[count++] = value;
        }
        byte[] tokens = dictionary.bytes();
        for (int t = 0; t < dictionary.count(); t++) {
            int start = dictionary.starts()[t];
            int length = dictionary.lengths()[t];
            if (length == 0 || length > 18 || (length > 1 && tokens[start] == '0')) {
                continue;
            }
            long value = 0;
            boolean digits = true;
            for (int p = start; p < start + length && digits; p++) {
                digits = ColumnarLineTokens.isDigit(tokens[p]);
                value = value * 10 + (tokens[p] - '0');
            }
            if (digits) {
                if (count == values.length) {
                    values = java.util.Arrays.copyOf(values, Math.max(16, count * 2));
                }
                values[count++] = value;
            }
        }
        // distinct values, so the filter is sized by them: ids repeat little, status codes on every line
        int slots = Integer.highestOneBit(Math.max(16, count) * 2 - 1) << 1;
        long[] table = scratch == null ? new long[slots] : ColumnarScanBuffers.atLeast(scratch.table, slots);
        java.util.Arrays.fill(table, 0, slots, 0L);
        int mask = slots - 1;
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            long stored = values[i] + 1; // values are below 10^18, so + 1 is never 0, the empty slot
            int slot = (int) ((stored * 0x9E3779B97F4A7C15L) >>> 32) & mask;
            while (table[slot] != 0 && table[slot] != stored) {
                slot = (slot + 1) & mask;
            }
            if (table[slot] == 0) {
                table[slot] = stored;
                values[distinct++] = values[i];
            }
        }
        if (scratch != null) {
            scratch.values = values;
            scratch.table = table;
        }
        return ColumnarNumberFilter.of(values, distinct);
    }

    /** The number whose varint starts at {@code at}, refused above 18 digits (the writer's are below 10^18). */
    private long numberAt(byte[] section, int at, int end) throws ChunkFormatException {
        long value = varintAt(section, at, end, "numbers");
        if (value < 0) { // only corrupt input gets here
            throw new ChunkFormatException(where + ": number " + Long.toUnsignedString(value) + " exceeds 18 digits");
        }
        return value;
    }

    private ChunkFormatException overflow(int total) {
        return new ChunkFormatException(where + ": tokens rebuild more than the declared " + total + " line bytes");
    }

    /**
     * Which rows contain {@code literal} (see the class comment), keeping the sections inflated for later searches.
     *
     * @throws ChunkFormatException when the payload is malformed, as {@link #decode} would
     */
    boolean[] rowsContaining(byte[] literal) throws ChunkFormatException {
        return rowsContaining(literal, null);
    }

    /**
     * Which rows contain {@code literal}: sections already kept are used as they are; others are inflated into
     * {@code scratch} and not kept, or inflated and kept when {@code scratch} is null.
     *
     * @throws ChunkFormatException when the payload is malformed, as {@link #decode} would
     */
    boolean[] rowsContaining(byte[] literal, ColumnarScanBuffers scratch) throws ChunkFormatException {
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
        Layout l = layout();
        Text kept;
        Bytes keptNumbers;
        synchronized (this) {
            kept = text;
            keptNumbers = numbers;
        }
        if (kept == null && scratch == null) {
            kept = text();
        }
        Dictionary dictionary;
        if (kept != null) {
            dictionary = kept.dictionary();
        } else {
            dictionary = scratchDictionary(scratch);
        }
        // per token, bit i = may stand for literal run i at its position: the first run as a suffix (contains it
        // when runs == 1), an inner run as the whole token, the last run as a prefix
        int count = dictionary.count();
        long[] codeMasks = new long[count + 2]; // by code: 0 (a number) and 1 (line end) stand for no run
        long tokenUnion = 0;
        for (int id = 0; id < count; id++) {
            codeMasks[id + 2] = runMask(dictionary.bytes(), dictionary.starts()[id], dictionary.lengths()[id], literal,
                    runStart, runs);
            tokenUnion |= codeMasks[id + 2];
        }
        long required = runs == 64 ? -1L : (1L << runs) - 1;
        DigitRuns digitRuns = digits ? DigitRuns.of(literal, runStart, runs) : null;
        long numberUnion = digitRuns == null ? 0 : digitRuns.possible;
        if (((tokenUnion | numberUnion) & required) != required) {
            return out; // some run of the literal has nothing in this block that could stand for it
        }
        if (digitRuns != null && hasRanges) {
            ColumnarNumberRanges.Table table = ranges(count + 2);
            if (table != null && rangesRuleOut(table, codeMasks, tokenUnion, digitRuns)) {
                return out; // some digit run of the literal has no number in range after runs that could precede it
            }
        }
        Bytes numberSection = null;
        if (digitRuns != null) {
            if (keptNumbers != null) {
                numberSection = keptNumbers;
            } else if (scratch == null) {
                numberSection = numbers();
            } else {
                numberSection = scratchNumbers(scratch);
            }
        }
        for (int i = 1; i < runs - 1; i++) {
            long bit = 1L << i;
            if ((tokenUnion & bit) == 0 && !containsVarint(numberSection.array(), numberSection.from(),
                    numberSection.to(), digitRuns.values[i])) {
                return out; // only a number could be this inner run, and no number has its value
            }
        }
        Bytes codes;
        if (kept != null) {
            codes = kept.codes();
        } else {
            scratch.codes = ColumnarScanBuffers.atLeast(scratch.codes, l.codes().size());
            codes = bytes(l.codes(), scratch.codes, scratch.zstd(), "codes");
        }
        walk(codes, numberSection, codeMasks, literal, runs, digitRuns, out);
        return out;
    }

    /**
     * Whether the ranges prove that no row contains the literal: for some digit run i ≥ 1 of the literal that no
     * token of the block can stand for (so only a number can), no number recorded after a pair of runs that can stand
     * for literal runs i - 2 and i - 1 lies where run i needs it (equal to it when inner, starting with it when last).
     *
     * <p>Why it holds: a line containing the literal holds its runs as consecutive line runs; the line run standing
     * for run i is then a number whose two preceding line runs stand for runs i - 2 and i - 1 (a token among them
     * has that mask bit; a number standing for a digit run i - 2 is accepted whatever its value), and the block's
     * ranges record that number under those two runs' codes. Run i - 1 is never a digit run (runs alternate class),
     * so its line run is a token; for i = 1 the run before it is not part of the literal and any code will do.
     */
    private static boolean rangesRuleOut(ColumnarNumberRanges.Table table, long[] codeMasks, long tokenUnion,
            DigitRuns digitRuns) {
        for (int i = 1; i < digitRuns.runs; i++) {
            long bit = 1L << i;
            if (digitRuns.lengths[i] == 0 || (tokenUnion & bit) != 0) {
                continue; // not a digit run, or a token (a digit run that is no canonical number) may stand for it
            }
            long beforeBit = 1L << (i - 1);
            long twoBeforeBit = i >= 2 ? 1L << (i - 2) : 0;
            boolean twoBeforeDigits = i >= 2 && digitRuns.lengths[i - 2] > 0;
            boolean found = false;
            for (int e = 0; e < table.size() && !found; e++) {
                if ((codeMasks[table.before1()[e]] & beforeBit) == 0) {
                    continue;
                }
                if (i >= 2) {
                    int before2 = table.before2()[e];
                    if (!(before2 == 0 ? twoBeforeDigits : (codeMasks[before2] & twoBeforeBit) != 0)) {
                        continue;
                    }
                }
                found = digitRuns.mayLieIn(i, table.least()[e], table.greatest()[e]);
            }
            if (!found) {
                return true;
            }
        }
        return false;
    }

    /**
     * Shift-And (Baeza-Yates and Gonnet, 1992) over each row's line runs: bit i of {@code state} is set when the runs
     * ending here match literal runs 0..i; a row matches when the last bit was ever set. A number is decoded only
     * where it could extend a match; the numbers before it are skipped by counting varint ends.
     */
    private void walk(Bytes codeSection, Bytes numberSection, long[] codeMasks, byte[] literal, int runs,
            DigitRuns digitRuns, boolean[] out) throws ChunkFormatException {
        byte[] codes = codeSection.array();
        int at = codeSection.from();
        int codesEnd = codeSection.to();
        int limit = codeMasks.length; // codes [2, limit) are tokens
        long lastBit = 1L << (runs - 1);
        long numberUnion = digitRuns == null ? 0 : digitRuns.possible;
        byte[] numbers = numberSection == null ? null : numberSection.array();
        int numberAt = numberSection == null ? 0 : numberSection.from();
        int numbersEnd = numberSection == null ? 0 : numberSection.to();
        long numbersSeen = 0;
        long numbersPassed = 0;
        byte[] printed = new byte[20];
        // the one-byte codes that can start a match, broadcast to every byte of a word; a number starts one when the
        // first run may be a number's suffix
        long[] starts = new long[MAX_SKIP_STARTS];
        int startCount = 0;
        for (int c = 2; c < Math.min(limit, 128) && startCount <= MAX_SKIP_STARTS; c++) {
            if ((codeMasks[c] & 1) != 0) {
                if (startCount < MAX_SKIP_STARTS) {
                    starts[startCount] = c * ONES;
                }
                startCount++;
            }
        }
        boolean skipping = startCount <= MAX_SKIP_STARTS;
        boolean oneStart = startCount <= 1; // nearly every literal: its first run ends one token
        for (int k = startCount; k < MAX_SKIP_STARTS; k++) {
            starts[k] = HIGH; // a byte of a multi-byte code, which stops the skip anyway
        }
        long numberStops = (numberUnion & 1) != 0 ? -1L : 0;
        boolean countNumbers = numbers != null;
        int row = 0;
        long state = 0;
        long hit = 0;
        while (at < codesEnd) {
            boolean matched = (hit & lastBit) != 0;
            if (skipping && (state == 0 || matched)) {
                // nothing under way (or the row already matched): jump to the next byte that can change that. Line
                // ends are counted on the way, rows without a match keeping their false; after a match the row's
                // end is a stop (its true is recorded there)
                long startStops = matched ? 0 : -1L;
                long endStops = matched ? -1L : 0;
                while (at <= codesEnd - 8) {
                    long w = (long) LONGS.get(codes, at);
                    long zeros = countNumbers || numberStops != 0 ? equalBytes(w, 0) : 0;
                    long ends = equalBytes(w, ONES);
                    long startBytes = equalBytes(w, starts[0]);
                    if (!oneStart) { // loop-invariant: the compiler keeps two loops, the usual one with one test
                        startBytes |= equalBytes(w, starts[1]) | equalBytes(w, starts[2]) | equalBytes(w, starts[3]);
                    }
                    long stop = (w & HIGH) | (ends & endStops) | (startStops & ((zeros & numberStops) | startBytes));
                    if (stop != 0) {
                        int skipped = Long.numberOfTrailingZeros(stop) & ~7;
                        long before = (1L << skipped) - 1;
                        numbersSeen += Long.bitCount(zeros & before);
                        long passedEnds = Long.bitCount(ends & before);
                        row += (int) passedEnds;
                        state = passedEnds == 0 ? state : 0;
                        hit = passedEnds == 0 ? hit : 0;
                        at += skipped >>> 3;
                        break;
                    }
                    numbersSeen += Long.bitCount(zeros);
                    long passedEnds = Long.bitCount(ends);
                    row += (int) passedEnds;
                    state = passedEnds == 0 ? state : 0;
                    hit = passedEnds == 0 ? hit : 0;
                    at += 8;
                }
                if (at >= codesEnd) {
                    break;
                }
            }
            int c = codes[at++];
            if (c > 1) { // a token id below 126: one byte, the common case
                if (c >= limit) {
                    throw outsideDictionary(c, limit);
                }
                state = ((state << 1) | 1) & codeMasks[c];
                hit |= state;
            } else if (c == 1) {
                if (row >= rows) {
                    throw new ChunkFormatException(where + ": codes go on after the last of " + rows + " rows");
                }
                out[row++] = (hit & lastBit) != 0;
                state = 0;
                hit = 0;
            } else if (c == 0) {
                long mask = 0;
                if (numbers != null && (((state << 1) | 1) & numberUnion) != 0) {
                    numberAt = skipNumbers(numbers, numberAt, numbersEnd, numbersSeen - numbersPassed);
                    numbersPassed = numbersSeen;
                    long value = 0; // the number and the position after it in one pass
                    for (int shift = 0; ; shift += 7) {
                        if (numberAt >= numbersEnd || shift >= 64) {
                            throw new ChunkFormatException(where + ": numbers truncated or overlong varint");
                        }
                        byte b = numbers[numberAt++];
                        value |= (long) (b & 0x7F) << shift;
                        if (b >= 0) {
                            break;
                        }
                    }
                    if (value < 0) { // only corrupt input gets here
                        throw new ChunkFormatException(where + ": number " + Long.toUnsignedString(value)
                                + " exceeds 18 digits");
                    }
                    numbersPassed++;
                    mask = runs == 1 ? containsPrinted(value, printed, literal) : digitRuns.mask(value);
                }
                numbersSeen++;
                state = ((state << 1) | 1) & mask;
                hit |= state;
            } else { // a token id of two or more varint bytes
                long id = varintAt(codes, at - 1, codesEnd, "codes");
                at = skipVarint(codes, at - 1, codesEnd);
                if (id < 2 || id >= limit) {
                    throw outsideDictionary(id, limit);
                }
                state = ((state << 1) | 1) & codeMasks[(int) id];
                hit |= state;
            }
        }
        if (row > rows) {
            throw new ChunkFormatException(where + ": codes go on after the last of " + rows + " rows");
        }
        if (row != rows) {
            throw new ChunkFormatException(where + ": codes end before row " + row + " does");
        }
        if (numbers != null) {
            long rest = 0;
            for (int i = numberAt; i < numbersEnd; i++) {
                rest += numbers[i] >= 0 ? 1 : 0;
            }
            if (rest != numbersSeen - numbersPassed || (numbersEnd > numberAt && numbers[numbersEnd - 1] < 0)) {
                throw new ChunkFormatException(where + ": codes or numbers left unused after " + rows + " rows");
            }
        }
    }

    /**
     * The position after the next {@code count} varints of {@code numbers} from {@code at} (a byte with its high bit
     * clear ends a varint): whole words while a word ends fewer varints than are left, then byte by byte. An earlier
     * word loop that exited at the word holding the last end measured slower than bytes alone; this one, whose exit
     * is one comparison per word, searched {@code status=500} 10-23 % faster (JMH {@code ColumnarLineSearchBenchmark}),
     * the lines of the load test holding a few numbers of one to three bytes each before their status.
     */
    private int skipNumbers(byte[] numbers, int at, int end, long count) throws ChunkFormatException {
        // a word's count of varint ends is the bit count of its cleared high bits
        while (at <= end - Long.BYTES) {
            int ends = Long.bitCount(~(long) LONGS.get(numbers, at) & HIGH);
            if (ends >= count) {
                break;
            }
            count -= ends;
            at += Long.BYTES;
        }
        while (count > 0) {
            if (at >= end) {
                throw new ChunkFormatException(where + ": numbers end before the codes use them");
            }
            if (numbers[at++] >= 0) {
                count--;
            }
        }
        return at;
    }

    /** 0x80 in each byte of {@code word} equal to the byte of {@code broadcast} (all bytes alike), 0 elsewhere. */
    private static long equalBytes(long word, long broadcast) {
        long x = word ^ broadcast;
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    private ChunkFormatException outsideDictionary(long code, int limit) {
        return new ChunkFormatException(where + ": token id " + (code - 2) + " outside the " + (limit - 2)
                + "-token dictionary");
    }

    /**
     * The code at {@code codes[at]} (0 = number, 1 = line end, else a token id + 2) and the position after it, packed
     * as {@code code << 32 | next}; a code outside the {@code count}-token dictionary is refused.
     */
    private long nextCode(byte[] codes, int at, int end, int row, int count) throws ChunkFormatException {
        if (at >= end) {
            throw new ChunkFormatException(where + ": codes end before row " + row + " does");
        }
        long c = codes[at];
        int next = at + 1;
        if (c < 0) { // multi-byte varint: rare, dictionaries are small
            c = varintAt(codes, at, end, "codes");
            next = skipVarint(codes, at, end);
        }
        if (c < 0 || c - 2 >= count) {
            throw new ChunkFormatException(where + ": token id " + (c - 2) + " outside the " + count
                    + "-token dictionary");
        }
        return c << 32 | next;
    }

    /** The uvarint starting at {@code section[at]}, before {@code end}; {@code what} names the section in errors. */
    private long varintAt(byte[] section, int at, int end, String what) throws ChunkFormatException {
        long value = 0;
        for (int shift = 0; shift < 64 && at < end; shift += 7) {
            byte b = section[at++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new ChunkFormatException(where + ": " + what + " truncated or overlong varint");
    }

    /** The position after the uvarint starting at {@code section[at]}, before {@code end}. */
    private int skipVarint(byte[] section, int at, int end) throws ChunkFormatException {
        for (int i = 0; i < 10 && at < end; i++) {
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
        return containsVarint(section, 0, section.length, value);
    }

    /** Whether the varint encoding of {@code value} starts at a varint boundary of {@code section[from, to)}. */
    static boolean containsVarint(byte[] section, int from, int to, long value) {
        byte[] encoded = new byte[10];
        int n = 0;
        long v = value;
        while ((v & ~0x7FL) != 0) {
            encoded[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        encoded[n++] = (byte) v;
        byte first = encoded[0];
        int last = to - n;
        for (int i = from; i <= last; i++) {
            // a varint starts at the section's start or after a byte with the continuation bit clear; the rest is
            // compared inline (a varint is a few bytes: a call to Arrays.equals per candidate cost more)
            if (section[i] == first && (i == from || section[i - 1] >= 0)) {
                int k = 1;
                while (k < n && section[i + k] == encoded[k]) {
                    k++;
                }
                if (k == n) {
                    return true;
                }
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

        /**
         * Whether a number in [{@code least}, {@code greatest}] can stand for run {@code i} ≥ 1 (a digit run): equal
         * to it when inner; when last, a canonical decimal starting with it (of each length d from the run's on,
         * the interval [value·10^(d-n), (value+1)·10^(d-n)) within the d-digit numbers).
         */
        boolean mayLieIn(int i, long least, long greatest) {
            if ((possible & (1L << i)) == 0) {
                return false;
            }
            if (i < runs - 1) {
                return least <= values[i] && values[i] <= greatest;
            }
            int n = lengths[i];
            for (int d = n; d <= 18; d++) {
                long lo = values[i] * POW10[d - n];
                if (lo > greatest) {
                    return false;
                }
                long hi = (values[i] + 1) * POW10[d - n] - 1;
                lo = Math.max(lo, d == 1 ? 0 : POW10[d - 1]);
                hi = Math.min(hi, POW10[d] - 1);
                if (lo <= hi && lo <= greatest && hi >= least) {
                    return true;
                }
            }
            return false;
        }

        /** The positional mask bits number {@code value} carries (two or more runs). */
        long mask(long value) {
            int digits = digits(value);
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

    /**
     * The decimal digits of {@code value} (non-negative; at most 19): the bit length times log10(2) (1233 / 4096) is the count or
     * one less, which a comparison with a power of ten decides.
     */
    static int digits(long value) {
        int guess = ((64 - Long.numberOfLeadingZeros(value | 1)) * 1233) >>> 12;
        return guess == 0 || value >= POW10[guess] ? guess + 1 : guess;
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
