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
 *   section ranges ({@link ColumnarEncoding#LINES_TOKENIZED_RANGES} only, the encoding written): the least and
 *     greatest number after each pair of runs, layout in {@link ColumnarNumberRanges}
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
    /** First size of the encoding buffers (see where they are made). */
    static final int INITIAL_BUFFER_BYTES = 256;
    /** Bytes of a run's code at most: a varint of a non-negative int. */
    private static final int MAX_CODE_BYTES = 5;
    /** Bytes of a number's varint at most: below 10^18, so under 2^63. */
    private static final int MAX_NUMBER_BYTES = 9;
    /** Numbers longer than 18 digits may not fit in a long; they stay tokens. */
    private static final int MAX_NUMBER_DIGITS = 18;
    private static final byte DIGIT = 0;
    private static final byte WORD = 1;
    static final byte OTHER = 2;
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

    // the buffers start small and grow to the blocks written, so every writer takes their growth path early: the
    // start-up warm-up's blocks are small, and buffers that never grew there left the growth to an uncommon trap that
    // threw the compiled encoder (C2's largest method of a merge) away at the first real merge, in the middle of a push
    private final ByteSink dictionary = new ByteSink(INITIAL_BUFFER_BYTES);
    private final ByteSink codes = new ByteSink(INITIAL_BUFFER_BYTES);
    private final ByteSink numbers = new ByteSink(INITIAL_BUFFER_BYTES);
    private final ByteSink ranges = new ByteSink(INITIAL_BUFFER_BYTES);
    private final ColumnarNumberRanges.Builder pairs = new ColumnarNumberRanges.Builder();
    private final TokenTable tokens = new TokenTable();
    private byte[] compressed = new byte[INITIAL_BUFFER_BYTES];

    /**
     * Encodes lines of {@code rows} at positions {@code order[from, to)} into {@code out}; returns the
     * fraction of line bytes the token dictionary holds (near 1 when lines share few tokens). When {@code words}
     * is not null, the lines' words by its rule are collected into it on the way (see {@link LineWords}).
     */
    double encode(ColumnarRows rows, int[] order, int from, int to, ZstdCompressCtx zstd, ByteSink out,
            LineWords words) {
        tokens.clear();
        codes.reset();
        numbers.reset();
        pairs.clear();
        byte[] bytes = rows.lineBytes();
        if (words != null) {
            words.begin(bytes);
        }
        long total = 0;
        // codes and numbers are written through locals: through the sinks, each run loaded and stored a sink's array
        // and size (the sinks' varint writes were 15 % of a merge's CPU in a profile); room is made as a sink would,
        // by doubling, so a huge line does not reserve several times its length
        byte[] codeBytes = codes.array();
        int codeSize = 0;
        byte[] numberBytes = numbers.array();
        int numberSize = 0;
        for (int i = from; i < to; i++) {
            int row = order[i];
            int start = rows.lineOffset(row);
            int end = start + rows.lineLength(row);
            total += end - start;
            int p = start;
            // the codes of the two runs before the current one, for the ranges section
            int before2 = ColumnarNumberRanges.LINE_START;
            int before1 = ColumnarNumberRanges.LINE_START;
            // the word being read for {@code words}: its start (-1: none), its one run's token or LineWords' markers
            int wordStart = -1;
            int wordToken = 0;
            boolean wordDigits = false;
            while (p < end) {
                // one pass per run: its class, its end, and its number value or its token key (hash and packed bytes)
                byte first = bytes[p];
                byte cls = CLASS[first & 0xFF];
                int q = p + 1;
                int code;
                if (cls == DIGIT) {
                    long value = first - '0';
                    while (q < end && CLASS[bytes[q] & 0xFF] == DIGIT) {
                        value = value * 10 + (bytes[q] - '0'); // wraps past 18 digits: such a run is a token below
                        q++;
                    }
                    if (q - p <= MAX_NUMBER_DIGITS && (q - p == 1 || first != '0')) {
                        code = 0;
                        if (numberBytes.length - numberSize < MAX_NUMBER_BYTES) {
                            numberBytes = numbers.room(numberSize, MAX_NUMBER_BYTES);
                        }
                        numberSize = ByteSink.putUvarint(numberBytes, numberSize, value);
                        pairs.add(before2, before1, value);
                    } else {
                        code = tokens.idOf(bytes, p, q - p) + 2;
                    }
                } else {
                    int hash = 31 + first;
                    long head = first & 0xFF;
                    long tail = 0;
                    while (q < end && CLASS[bytes[q] & 0xFF] == cls) {
                        byte b = bytes[q];
                        hash = 31 * hash + b;
                        if (q - p < Long.BYTES) {
                            head = head << 8 | (b & 0xFF);
                        } else {
                            tail = tail << 8 | (b & 0xFF);
                        }
                        q++;
                    }
                    code = tokens.idOf(bytes, p, q - p, hash, head, tail) + 2;
                }
                if (words != null) {
                    if (cls != OTHER) { // letters or digits: a word starts here or goes on
                        if (wordStart < 0) {
                            wordStart = p;
                            wordToken = code == 0 ? LineWords.NUMBER : code - 2;
                            wordDigits = cls == DIGIT;
                        } else {
                            wordToken = LineWords.SEVERAL_RUNS;
                            wordDigits = false;
                        }
                    } else if (words.asciiOthersSeparate() && isAscii(bytes, p, q)) { // separators: a word ends
                        if (wordStart >= 0) {
                            words.word(wordStart, p, wordToken, wordDigits);
                            wordStart = -1;
                        }
                    } else {
                        wordStart = otherRunWords(words, bytes, p, q, wordStart, wordToken, wordDigits);
                        wordToken = LineWords.SEVERAL_RUNS;
                        wordDigits = false;
                    }
                }
                if (codeBytes.length - codeSize < MAX_CODE_BYTES) {
                    codeBytes = codes.room(codeSize, MAX_CODE_BYTES);
                }
                codeSize = ByteSink.putUvarint(codeBytes, codeSize, code);
                before2 = before1;
                before1 = code;
                p = q;
            }
            if (wordStart >= 0) {
                words.word(wordStart, end, wordToken, wordDigits);
            }
            if (codeBytes.length - codeSize < MAX_CODE_BYTES) {
                codeBytes = codes.room(codeSize, MAX_CODE_BYTES);
            }
            codeBytes[codeSize++] = 1; // the line's end
        }
        codes.setSize(codeSize);
        numbers.setSize(numberSize);
        if (words != null) {
            words.end();
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
        pairs.writeTo(ranges);
        writeSection(out, ranges, zstd);
        return total == 0 ? 1 : dictionary.size() / (double) total;
    }

    /** Whether {@code bytes[p, q)} are all ASCII (an "other" run of separators is a byte or two, rarely more). */
    private static boolean isAscii(byte[] bytes, int p, int q) {
        for (int i = p; i < q; i++) {
            if (bytes[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The words of an "other" run {@code bytes[p, q)} holding word bytes (non-ASCII ones under the word tokens' rule),
     * byte by byte: a word open before it (from {@code wordStart}, -1 when none) ends at its first non-word byte, or
     * goes on; returns the start of the word still open at {@code q}, or -1.
     */
    private static int otherRunWords(LineWords words, byte[] bytes, int p, int q, int wordStart, int wordToken,
            boolean wordDigits) {
        int start = wordStart;
        boolean severalRuns = false; // the word open on entry keeps its own token while it ends at p
        for (int b = p; b < q; b++) {
            if (words.isWordByte(bytes[b])) {
                if (start < 0) {
                    start = b;
                }
                severalRuns = true;
            } else if (start >= 0) {
                words.word(start, b, severalRuns ? LineWords.SEVERAL_RUNS : wordToken, !severalRuns && wordDigits);
                start = -1;
                severalRuns = true;
            }
        }
        return start;
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

    /**
     * Decodes a payload written by {@link #encode} holding {@code rows} lines; {@code ranges}: whether it has the
     * ranges section ({@link ColumnarEncoding#LINES_TOKENIZED_RANGES}).
     */
    static ColumnarLines decode(byte[] payload, int rows, boolean ranges, String where) throws ChunkFormatException {
        return new ColumnarLineTokenSections(payload, rows, ranges, where).decode();
    }

    /** Whether {@code b} is an ASCII digit (the class numbers are made of). */
    static boolean isDigit(byte b) {
        return CLASS[b & 0xFF] == DIGIT;
    }

    /** The byte class of {@code b}: runs of one class are the units lines are split into. */
    static byte byteClass(byte b) {
        return CLASS[b & 0xFF];
    }

    /**
     * Token bytes → dense id, open addressing over (hash, first occurrence) so no object is made per
     * token; ids refer to the first occurrence's bytes in the source array of the current block.
     * Tokens of up to 16 bytes (nearly all: words, punctuation, separators) are also kept packed into
     * two {@code long}s, so a repeat is recognized by comparing two longs and the length, with no loop
     * over the bytes: every token occurrence of a block is looked up here, and the byte loop was a
     * third of the column's encoding time.
     */
    private static final class TokenTable {
        /** Tokens up to this many bytes are compared by their packed bytes. */
        private static final int MAX_PACKED_BYTES = 2 * Long.BYTES;
        private int[] slots = new int[1024];
        private int[] starts = new int[256];
        private int[] lengths = new int[256];
        private int[] hashes = new int[256];
        /** Per token of up to {@link #MAX_PACKED_BYTES} bytes: its first 8 bytes big-endian, then the rest. */
        private long[] packs = new long[512];
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

        /** The id of {@code bytes[start, start + length)}, computing its key. */
        int idOf(byte[] bytes, int start, int length) {
            int hash = 1;
            long head = 0;
            long tail = 0;
            for (int i = start; i < start + length; i++) {
                hash = 31 * hash + bytes[i];
                if (i - start < Long.BYTES) {
                    head = head << 8 | (bytes[i] & 0xFF);
                } else {
                    tail = tail << 8 | (bytes[i] & 0xFF);
                }
            }
            return idOf(bytes, start, length, hash, head, tail);
        }

        /**
         * The id of {@code bytes[start, start + length)} (added when new), given its key: {@code hash} the
         * polynomial hash (31, seed 1) of its bytes, {@code head} its first 8 bytes big-endian in a long and
         * {@code tail} the following ones likewise (unused beyond 16 bytes).
         */
        int idOf(byte[] bytes, int start, int length, int hash, long head, long tail) {
            hash ^= hash >>> 16;
            int mask = slots.length - 1;
            boolean isPacked = length <= MAX_PACKED_BYTES;
            for (int slot = hash & mask;; slot = (slot + 1) & mask) {
                int entry = slots[slot];
                if (entry == 0) {
                    return add(slot, hash, start, length, head, tail);
                }
                int id = entry - 1;
                if (hashes[id] == hash && lengths[id] == length
                        && (isPacked ? packs[2 * id] == head && packs[2 * id + 1] == tail : sameBytes(bytes, starts[id], start, length))) {
                    return id;
                }
            }
        }

        /** Long tokens are rare; a plain loop beats the vectorized mismatch's setup on the short ones among them. */
        private static boolean sameBytes(byte[] bytes, int a, int b, int length) {
            for (int i = 0; i < length; i++) {
                if (bytes[a + i] != bytes[b + i]) {
                    return false;
                }
            }
            return true;
        }

        private int add(int slot, int hash, int start, int length, long head, long tail) {
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
                lengths = Arrays.copyOf(lengths, size * 2);
                hashes = Arrays.copyOf(hashes, size * 2);
                packs = Arrays.copyOf(packs, size * 4);
            }
            int id = size++;
            starts[id] = start;
            lengths[id] = length;
            hashes[id] = hash;
            packs[2 * id] = head;
            packs[2 * id + 1] = tail;
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
     * the token stream without rebuilding the lines (see {@link ColumnarLineTokenSections}).
     *
     * @throws ChunkFormatException when the payload is malformed, as {@link #decode} would
     */
    static boolean[] rowsContaining(byte[] payload, int rows, boolean ranges, String where, byte[] literal)
            throws ChunkFormatException {
        return new ColumnarLineTokenSections(payload, rows, ranges, where).rowsContaining(literal);
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
