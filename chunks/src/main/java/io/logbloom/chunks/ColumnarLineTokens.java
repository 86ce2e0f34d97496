package io.logbloom.chunks;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.Arrays;

/**
 * The {@link ColumnarEncoding#LINES_TOKENIZED} line encoding: each line is split into maximal runs
 * of one byte class (ASCII digits, ASCII letters and '_', everything else), digit runs that are
 * canonical decimals below 10^18 become numbers, every other run becomes an id into a per-block
 * token dictionary. Three sections, each zstd-compressed on its own (separate frames, so each gets
 * entropy tables fitted to it):
 *
 * <pre>
 * payload:
 *   uvarint total line bytes
 *   section dictionary: uvarint token count, then (uvarint length, bytes) per token
 *   section codes: per line, uvarint codes: 0 = next number, 1 = end of line, k = token k - 2
 *   section numbers: uvarint values, in order of use
 * section:
 *   uvarint stored length, uvarint raw length (0 = stored plain, else zstd frame inflating to it)
 * </pre>
 *
 * <p>Why: generic LZ coders pay an offset and length (2–3 bytes) for every repeated word, however
 * small the vocabulary; an id from a 100-token dictionary costs under a byte after entropy coding,
 * and numbers as varints lose the decimal text's redundancy-free digits' literal overhead. On the
 * load-test lines this is about 35 % smaller than zstd over the plain bytes at level 3 and 27 %
 * at level 19 (ColumnarFootprintReport). The idea follows CLP (Rodrigues et al., "CLP: Efficient
 * and Scalable Search on Compressed Text Logs", OSDI 2021), which splits logs into templates,
 * dictionary variables and encoded numbers; here without templates, per block.
 *
 * <p>Splitting only at ASCII class boundaries never splits a multi-byte UTF-8 sequence (all its
 * bytes are in the "other" class), and concatenating the tokens restores the bytes exactly, valid
 * UTF-8 or not. Not thread-safe: holds scratch buffers (one instance per encoder); decoding is
 * static and thread-safe.
 */
final class ColumnarLineTokens {
    /** Numbers longer than 18 digits may not fit in a long; they stay tokens. */
    private static final int MAX_NUMBER_DIGITS = 18;
    private static final byte DIGIT = 0;
    private static final byte WORD = 1;
    private static final byte OTHER = 2;
    private static final byte[] CLASS = new byte[256];

    static {
        Arrays.fill(CLASS, OTHER);
        for (int c = '0'; c <= '9'; c++) {
            CLASS[c] = DIGIT;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            CLASS[c] = WORD;
            CLASS[c - 'a' + 'A'] = WORD;
        }
        CLASS['_'] = WORD;
    }

    private final ByteSink dictionary = new ByteSink(4096);
    private final ByteSink codes = new ByteSink(64 * 1024);
    private final ByteSink numbers = new ByteSink(16 * 1024);
    private final TokenTable tokens = new TokenTable();
    private byte[] compressed = new byte[64 * 1024];

    /**
     * Encodes lines of {@code rows} at positions {@code order[from, to)} into {@code out}; returns the
     * fraction of line bytes the token dictionary holds (near 1 when lines share few tokens).
     */
    double encode(ColumnarRows rows, int[] order, int from, int to, ZstdCompressCtx zstd, ByteSink out) {
        tokens.clear();
        codes.reset();
        numbers.reset();
        byte[] bytes = rows.lineBytes();
        long total = 0;
        for (int i = from; i < to; i++) {
            int row = order[i];
            int start = rows.lineOffset(row);
            int end = start + rows.lineLength(row);
            total += end - start;
            int p = start;
            while (p < end) {
                byte cls = CLASS[bytes[p] & 0xFF];
                int q = p + 1;
                while (q < end && CLASS[bytes[q] & 0xFF] == cls) {
                    q++;
                }
                if (cls == DIGIT && q - p <= MAX_NUMBER_DIGITS && (q - p == 1 || bytes[p] != '0')) {
                    long value = 0;
                    for (int d = p; d < q; d++) {
                        value = value * 10 + (bytes[d] - '0');
                    }
                    codes.writeUvarint(0);
                    numbers.writeUvarint(value);
                } else {
                    codes.writeUvarint(tokens.idOf(bytes, p, q - p) + 2L);
                }
                p = q;
            }
            codes.writeUvarint(1);
        }
        dictionary.reset();
        dictionary.writeUvarint(tokens.size());
        for (int t = 0; t < tokens.size(); t++) {
            dictionary.writeUvarint(tokens.length(t));
            dictionary.writeBytes(bytes, tokens.start(t), tokens.length(t));
        }
        out.reset();
        out.writeUvarint(total);
        writeSection(out, dictionary, zstd);
        writeSection(out, codes, zstd);
        writeSection(out, numbers, zstd);
        return total == 0 ? 1 : dictionary.size() / (double) total;
    }

    private void writeSection(ByteSink out, ByteSink section, ZstdCompressCtx zstd) {
        int bound = (int) Zstd.compressBound(section.size());
        if (compressed.length < bound) {
            compressed = new byte[Math.max(bound, compressed.length * 2)];
        }
        int n = section.size() < 32 ? Integer.MAX_VALUE
                : zstd.compressByteArray(compressed, 0, compressed.length, section.array(), 0, section.size());
        if (n < section.size()) {
            out.writeUvarint(n);
            out.writeUvarint(section.size());
            out.writeBytes(compressed, 0, n);
        } else {
            out.writeUvarint(section.size());
            out.writeUvarint(0);
            out.writeBytes(section.array(), 0, section.size());
        }
    }

    /** Decodes a payload written by {@link #encode} holding {@code rows} lines. */
    static ColumnarLines decode(byte[] payload, int rows, String where) throws ChunkFormatException {
        ByteSource in = new ByteSource(payload, 0, payload.length, where);
        int total = in.readLength(ColumnarLayout.MAX_DECODED_COLUMN_BYTES, "total line bytes");
        // every section is at most 10 bytes (a varint) per line byte or line end, plus its counts
        long maxSection = 10L * total + 10L * rows + 16;
        byte[] dictionary = section(in, payload, where, "dictionary", maxSection);
        byte[] codeBytes = section(in, payload, where, "codes", maxSection);
        byte[] numberBytes = section(in, payload, where, "numbers", maxSection);
        if (in.hasRemaining()) {
            throw new ChunkFormatException(where + ": trailing bytes after the numbers section");
        }
        ByteSource dict = new ByteSource(dictionary, 0, dictionary.length, where + " dictionary");
        int count = dict.readLength(dictionary.length, "token count");
        int[] starts = new int[count];
        int[] lengths = new int[count];
        for (int t = 0; t < count; t++) {
            lengths[t] = dict.readLength(dictionary.length, "token length");
            starts[t] = dict.position();
            dict.skip(lengths[t]);
        }
        byte[] out = new byte[total];
        int[] offsets = new int[rows + 1];
        int codeAt = 0;
        int numberAt = 0;
        int position = 0;
        byte[] digits = new byte[19];
        for (int row = 0; row < rows; row++) {
            while (true) {
                if (codeAt >= codeBytes.length) {
                    throw new ChunkFormatException(where + ": codes end before row " + row + " does");
                }
                long c = codeBytes[codeAt++];
                if (c < 0) { // multi-byte varint: rare, dictionaries are small
                    c &= 0x7F;
                    for (int shift = 7;; shift += 7) {
                        if (codeAt >= codeBytes.length || shift > 63) {
                            throw new ChunkFormatException(where + ": truncated or overlong code varint");
                        }
                        byte b = codeBytes[codeAt++];
                        c |= (long) (b & 0x7F) << shift;
                        if (b >= 0) {
                            break;
                        }
                    }
                }
                if (c == 1) {
                    break;
                }
                if (c == 0) {
                    long value = 0;
                    for (int shift = 0;; shift += 7) {
                        if (numberAt >= numberBytes.length || shift > 63) {
                            throw new ChunkFormatException(where + ": numbers truncated or overlong varint");
                        }
                        byte b = numberBytes[numberAt++];
                        value |= (long) (b & 0x7F) << shift;
                        if (b >= 0) {
                            break;
                        }
                    }
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
                        throw overflow(where, total);
                    }
                    for (int d = n - 1; d >= 0; d--) {
                        out[position++] = digits[d];
                    }
                } else {
                    if (c - 2 >= count || c < 0) {
                        throw new ChunkFormatException(where + ": token id " + (c - 2) + " outside the " + count
                                + "-token dictionary");
                    }
                    int t = (int) (c - 2);
                    if (lengths[t] > total - position) {
                        throw overflow(where, total);
                    }
                    int length = lengths[t];
                    int start = starts[t];
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

    private static ChunkFormatException overflow(String where, int total) {
        return new ChunkFormatException(where + ": tokens rebuild more than the declared " + total + " line bytes");
    }

    private static byte[] section(ByteSource in, byte[] payload, String where, String name, long maxSection)
            throws ChunkFormatException {
        int stored = in.readLength(payload.length, name + " stored length");
        int raw = in.readLength((int) Math.min(maxSection, ColumnarLayout.MAX_DECODED_COLUMN_BYTES),
                name + " raw length");
        int start = in.position();
        in.skip(stored);
        if (raw == 0) {
            return Arrays.copyOfRange(payload, start, start + stored);
        }
        return ColumnarColumnDecoder.inflate(payload, start, stored, raw, where + " " + name + " section");
    }

    /**
     * Token bytes → dense id, open addressing over (hash, first occurrence) so no object is made per
     * token; ids refer to the first occurrence's bytes in the source array of the current block.
     */
    private static final class TokenTable {
        private int[] slots = new int[1024];
        private int[] starts = new int[256];
        private int[] lengths = new int[256];
        private int[] hashes = new int[256];
        private int size;

        void clear() {
            Arrays.fill(slots, 0);
            size = 0;
        }

        int size() {
            return size;
        }

        int start(int id) {
            return starts[id];
        }

        int length(int id) {
            return lengths[id];
        }

        int idOf(byte[] bytes, int start, int length) {
            int hash = 1;
            for (int i = start; i < start + length; i++) {
                hash = 31 * hash + bytes[i];
            }
            hash ^= hash >>> 16;
            int mask = slots.length - 1;
            for (int slot = hash & mask;; slot = (slot + 1) & mask) {
                int entry = slots[slot];
                if (entry == 0) {
                    return add(slot, hash, start, length);
                }
                int id = entry - 1;
                if (hashes[id] == hash && lengths[id] == length && sameBytes(bytes, starts[id], start, length)) {
                    return id;
                }
            }
        }

        /** Tokens are a few bytes long, where a plain loop beats the vectorized mismatch's setup. */
        private static boolean sameBytes(byte[] bytes, int a, int b, int length) {
            for (int i = 0; i < length; i++) {
                if (bytes[a + i] != bytes[b + i]) {
                    return false;
                }
            }
            return true;
        }

        private int add(int slot, int hash, int start, int length) {
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
                lengths = Arrays.copyOf(lengths, size * 2);
                hashes = Arrays.copyOf(hashes, size * 2);
            }
            int id = size++;
            starts[id] = start;
            lengths[id] = length;
            hashes[id] = hash;
            slots[slot] = id + 1;
            if (2 * size > slots.length) {
                rehash();
            }
            return id;
        }

        private void rehash() {
            slots = new int[slots.length * 2];
            int mask = slots.length - 1;
            for (int id = 0; id < size; id++) {
                int slot = hashes[id] & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = id + 1;
            }
        }
    }

    /**
     * Which of the {@code rows} lines of a payload written by {@link #encode} contain {@code literal}, found on
     * the token stream without rebuilding the lines (about one code byte per token instead of every line byte).
     *
     * <p>Method (after CLP's search on encoded logs, see the class comment): split the literal into maximal runs
     * of one byte class, as lines are split. A line run is maximal, so a literal of one run lies inside a single
     * line run: a row matches when one of its tokens (or numbers, printed) contains it. A literal of k ≥ 2 runs
     * must cover k consecutive line runs: the first literal run a suffix of its line run, the inner ones equal to
     * whole line runs, the last a prefix; each row's run sequence is checked at every position. Numbers only ever
     * stand for digit runs, so a literal without digits never reads the numbers section.
     *
     * @throws ChunkFormatException when the payload is malformed, as {@link #decode} would
     */
    static boolean[] rowsContaining(byte[] payload, int rows, String where, byte[] literal)
            throws ChunkFormatException {
        ByteSource in = new ByteSource(payload, 0, payload.length, where);
        int total = in.readLength(ColumnarLayout.MAX_DECODED_COLUMN_BYTES, "total line bytes");
        long maxSection = 10L * total + 10L * rows + 16;
        byte[] dictionary = section(in, payload, where, "dictionary", maxSection);
        byte[] codeBytes = section(in, payload, where, "codes", maxSection);
        boolean digits = false;
        for (byte b : literal) {
            digits |= CLASS[b & 0xFF] == DIGIT;
        }
        // a literal without digits never needs a number's value: its section is not even inflated
        byte[] numberBytes = digits ? section(in, payload, where, "numbers", maxSection) : new byte[0];
        boolean[] out = new boolean[rows];
        if (literal.length == 0) {
            Arrays.fill(out, true);
            return out;
        }
        ByteSource dict = new ByteSource(dictionary, 0, dictionary.length, where + " dictionary");
        int count = dict.readLength(dictionary.length, "token count");
        int[] starts = new int[count];
        int[] lengths = new int[count];
        for (int t = 0; t < count; t++) {
            lengths[t] = dict.readLength(dictionary.length, "token length");
            starts[t] = dict.position();
            dict.skip(lengths[t]);
        }
        // the literal's runs: [runStart[i], runStart[i + 1])
        int[] runStart = new int[literal.length + 1];
        int runs = 0;
        for (int p = 0; p < literal.length; p++) {
            if (p == 0 || CLASS[literal[p] & 0xFF] != CLASS[literal[p - 1] & 0xFF]) {
                runStart[runs++] = p;
            }
        }
        runStart[runs] = literal.length;
        // per token: bit 0 = may hold the first run (contains it when runs == 1, else ends with it),
        // bit 1 = starts with the last run, bit 2 + i = equals inner run i (runs > 2 only)
        long[] tokenMasks = new long[count];
        if (runs > 64) {
            runs = -1; // more runs than a mask holds: fall back to rebuilding the lines below
        } else {
            for (int t = 0; t < count; t++) {
                tokenMasks[t] = runMask(dictionary, starts[t], lengths[t], literal, runStart, runs);
            }
        }
        if (runs < 0) {
            ColumnarLines lines = decode(payload, rows, where);
            for (int row = 0; row < rows; row++) {
                out[row] = indexOf(lines.bytes(), lines.offset(row), lines.length(row), literal) >= 0;
            }
            return out;
        }
        long[] rowMasks = new long[16];
        byte[] printed = new byte[20];
        int codeAt = 0;
        int numberAt = 0;
        for (int row = 0; row < rows; row++) {
            int n = 0;
            while (true) {
                if (codeAt >= codeBytes.length) {
                    throw new ChunkFormatException(where + ": codes end before row " + row + " does");
                }
                long c = codeBytes[codeAt++];
                if (c < 0) {
                    c &= 0x7F;
                    for (int shift = 7;; shift += 7) {
                        if (codeAt >= codeBytes.length || shift > 63) {
                            throw new ChunkFormatException(where + ": truncated or overlong code varint");
                        }
                        byte b = codeBytes[codeAt++];
                        c |= (long) (b & 0x7F) << shift;
                        if (b >= 0) {
                            break;
                        }
                    }
                }
                if (c == 1) {
                    break;
                }
                long mask;
                if (c == 0) {
                    if (!digits) {
                        mask = 0; // a number is a digit run: no run of a digit-free literal can touch it
                    } else {
                        long value = 0;
                        for (int shift = 0;; shift += 7) {
                            if (numberAt >= numberBytes.length || shift > 63) {
                                throw new ChunkFormatException(where + ": numbers truncated or overlong varint");
                            }
                            byte b = numberBytes[numberAt++];
                            value |= (long) (b & 0x7F) << shift;
                            if (b >= 0) {
                                break;
                            }
                        }
                        if (value < 0) {
                            throw new ChunkFormatException(where + ": number " + Long.toUnsignedString(value)
                                    + " exceeds 18 digits");
                        }
                        int k = printed.length;
                        do {
                            printed[--k] = (byte) ('0' + value % 10);
                            value /= 10;
                        } while (value != 0);
                        mask = runMask(printed, k, printed.length - k, literal, runStart, runs);
                    }
                } else {
                    if (c - 2 >= count || c < 0) {
                        throw new ChunkFormatException(where + ": token id " + (c - 2) + " outside the " + count
                                + "-token dictionary");
                    }
                    mask = tokenMasks[(int) (c - 2)];
                }
                if (n == rowMasks.length) {
                    rowMasks = Arrays.copyOf(rowMasks, n * 2);
                }
                rowMasks[n++] = mask;
            }
            out[row] = matches(rowMasks, n, runs);
        }
        if (codeAt != codeBytes.length || (digits && numberAt != numberBytes.length)) {
            throw new ChunkFormatException(where + ": codes or numbers left unused after " + rows + " rows");
        }
        return out;
    }

    /** Whether the run masks of one row hold the literal's runs at consecutive positions. */
    private static boolean matches(long[] masks, int n, int runs) {
        if (runs == 1) {
            for (int j = 0; j < n; j++) {
                if ((masks[j] & 1) != 0) {
                    return true;
                }
            }
            return false;
        }
        for (int j = 0; j + runs <= n; j++) {
            if ((masks[j] & 1) == 0 || (masks[j + runs - 1] & 2) == 0) {
                continue;
            }
            boolean inner = true;
            for (int i = 1; i < runs - 1 && inner; i++) {
                inner = (masks[j + i] & (1L << (i + 1))) != 0;
            }
            if (inner) {
                return true;
            }
        }
        return false;
    }

    /** The run mask of one line run {@code bytes[start, start + length)} against the literal's runs. */
    private static long runMask(byte[] bytes, int start, int length, byte[] literal, int[] runStart, int runs) {
        if (runs == 1) {
            return indexOf(bytes, start, length, literal) >= 0 ? 1 : 0;
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
            mask |= 2;
        }
        for (int i = 1; i < runs - 1; i++) {
            if (Arrays.equals(bytes, start, start + length, literal, runStart[i], runStart[i + 1])) {
                mask |= 1L << (i + 1);
            }
        }
        return mask;
    }

    /** First position of {@code needle} in {@code bytes[offset, offset + length)}, or -1. */
    static int indexOf(byte[] bytes, int offset, int length, byte[] needle) {
        int m = needle.length;
        if (m == 0) {
            return offset;
        }
        byte first = needle[0];
        int last = offset + length - m;
        for (int i = offset; i <= last; i++) {
            if (bytes[i] == first && Arrays.equals(bytes, i + 1, i + m, needle, 1, m)) {
                return i;
            }
        }
        return -1;
    }
}
