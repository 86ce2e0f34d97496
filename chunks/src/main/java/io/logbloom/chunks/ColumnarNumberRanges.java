package io.logbloom.chunks;

import java.util.Arrays;

/**
 * The ranges section of a {@link ColumnarEncoding#LINES_TOKENIZED_RANGES} line column: for each pair of line runs
 * that some number of the block follows (the codes of the two runs before it, {@link #LINE_START} where the line has
 * none), the least and the greatest such number. A literal filter whose digit run only a number can stand for
 * ({@code 500} in {@code |= "status=500"}) then rules out a block whose numbers after {@code status=} all lie
 * elsewhere (an info service's 200-304) from a few hundred bytes, before its codes and numbers are inflated.
 *
 * <p>Why pairs: the run right before a number is mostly punctuation ({@code =}, {@code ":}) that every key shares, so
 * its range alone spans sizes, durations and ids; the run before that is the key. A zone map (min/max per column,
 * as Parquet's page statistics or VictoriaLogs' per-block value ranges) on the columns the token walk finds inside
 * lines, without parsing them at ingestion.
 *
 * <pre>
 * section (raw; stored plain or zstd'd as the other sections):
 *   empty: not recorded (more than {@link #MAX_PAIRS} pairs); no proof is drawn from it
 *   else: uvarint pair count N, then N times, sorted by (before2, before1):
 *     uvarint before2 code, uvarint before1 code, uvarint least number, uvarint (greatest - least)
 * </pre>
 *
 * Codes are the codes section's: 0 a number, {@link #LINE_START} (the line-end code) for no run, k + 2 token k.
 *
 * <p>The builder is not thread-safe (one per encoder, reused per block); a parsed table is immutable.
 */
final class ColumnarNumberRanges {
    /** The code standing for "no run before": the codes section's line end, which no literal run can be. */
    static final int LINE_START = 1;
    /**
     * Pairs recorded at most per block: a service's lines put numbers after tens of keys; a block past this (ids
     * before numbers, free text) records nothing rather than a section as large as its numbers.
     */
    static final int MAX_PAIRS = 1024;

    private ColumnarNumberRanges() {}

    /** Collects the pairs of one block, in encoding order. */
    static final class Builder {
        private int[] slots = new int[256];
        private long[] keys = new long[128];
        private long[] least = new long[128];
        private long[] greatest = new long[128];
        private int size;
        private boolean overflowed;

        void clear() {
            Arrays.fill(slots, 0);
            size = 0;
            overflowed = false;
        }

        /** Records number {@code value} after runs coded {@code before2}, {@code before1}. */
        void add(int before2, int before1, long value) {
            if (overflowed) {
                return;
            }
            long key = (long) before2 << 32 | (before1 & 0xFFFFFFFFL);
            int mask = slots.length - 1;
            for (int slot = hash(key) & mask;; slot = (slot + 1) & mask) {
                int entry = slots[slot];
                if (entry == 0) {
                    if (size == MAX_PAIRS) {
                        overflowed = true;
                        return;
                    }
                    insert(slot, key, value);
                    return;
                }
                int i = entry - 1;
                if (keys[i] == key) {
                    least[i] = Math.min(least[i], value);
                    greatest[i] = Math.max(greatest[i], value);
                    return;
                }
            }
        }

        private void insert(int slot, long key, long value) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                least = Arrays.copyOf(least, size * 2);
                greatest = Arrays.copyOf(greatest, size * 2);
            }
            keys[size] = key;
            least[size] = value;
            greatest[size] = value;
            slots[slot] = ++size;
            if (2 * size > slots.length) {
                slots = new int[slots.length * 2];
                int mask = slots.length - 1;
                for (int i = 0; i < size; i++) {
                    int s = hash(keys[i]) & mask;
                    while (slots[s] != 0) {
                        s = (s + 1) & mask;
                    }
                    slots[s] = i + 1;
                }
            }
        }

        /** A pair key's slot hash: Fibonacci hashing, the product's high bits. */
        private static int hash(long key) {
            return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40);
        }

        /** Writes the section's raw bytes into {@code out} (reset first): nothing when the pairs overflowed. */
        void writeTo(ByteSink out) {
            out.reset();
            if (overflowed) {
                return;
            }
            Integer[] order = new Integer[size];
            for (int i = 0; i < size; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
            out.writeUvarint(size);
            for (int i : order) {
                out.writeUvarint(keys[i] >>> 32);
                out.writeUvarint(keys[i] & 0xFFFFFFFFL);
                out.writeUvarint(least[i]);
                out.writeUvarint(greatest[i] - least[i]);
            }
        }
    }

    /**
     * A parsed section: pair {@code i} is the runs coded {@code before2[i]}, {@code before1[i]}, whose numbers lie in
     * [{@code least[i]}, {@code greatest[i]}].
     */
    record Table(int[] before2, int[] before1, long[] least, long[] greatest) {
        int size() {
            return before1.length;
        }
    }

    /**
     * Parses a section's raw bytes {@code bytes[from, to)} of a block whose codes are below {@code codeLimit}; null
     * when the section is empty (nothing recorded).
     *
     * @throws ChunkFormatException when the bytes are malformed or name a code outside the dictionary
     */
    static Table parse(byte[] bytes, int from, int to, int codeLimit, String where) throws ChunkFormatException {
        if (from == to) {
            return null;
        }
        ByteSource in = new ByteSource(bytes, from, to - from, where + " ranges");
        int n = in.readLength(MAX_PAIRS, "pair count");
        int[] before2 = new int[n];
        int[] before1 = new int[n];
        long[] least = new long[n];
        long[] greatest = new long[n];
        for (int i = 0; i < n; i++) {
            before2[i] = code(in, codeLimit, where);
            before1[i] = code(in, codeLimit, where);
            least[i] = in.readUvarint();
            long span = in.readUvarint();
            greatest[i] = least[i] + span;
            if (least[i] < 0 || span < 0 || greatest[i] < least[i]) {
                throw new ChunkFormatException(where + " ranges: pair " + i + " spans past 18 digits");
            }
        }
        if (in.hasRemaining()) {
            throw new ChunkFormatException(where + " ranges: trailing bytes after " + n + " pairs");
        }
        return new Table(before2, before1, least, greatest);
    }

    private static int code(ByteSource in, int codeLimit, String where) throws ChunkFormatException {
        long code = in.readUvarint();
        if (code < 0 || code >= codeLimit) {
            throw new ChunkFormatException(where + " ranges: code " + Long.toUnsignedString(code)
                    + " outside the dictionary's " + codeLimit + " codes");
        }
        return (int) code;
    }
}
