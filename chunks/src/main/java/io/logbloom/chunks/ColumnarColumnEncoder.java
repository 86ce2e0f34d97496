package io.logbloom.chunks;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Encodes the columns of one block, choosing per column the smallest of the applicable
 * {@link ColumnarEncoding}s, each with or without zstd. The payload layouts are described on
 * {@link ColumnarEncoding} and in {@code ColumnarLayout}.
 *
 * <p>Choice: timestamps try delta and delta-of-delta (regular intervals make delta-of-delta runs of
 * zeros) and keep the smaller, then zstd if it shrinks it; lines are zstd-compressed unless that does
 * not help (already-compressed or tiny lines), or tokenized ({@link ColumnarLineTokens}) when that is
 * smaller (lines with a small token vocabulary skip the plain attempt); metadata tries constant (when every present row has
 * one value, nothing can be smaller), then raw, dictionary (while distinct values stay below half
 * the rows) and hex (when every value is even-length hex of one case), each plain and zstd'd; hex
 * values too diverse for a dictionary are only packed (plain or zstd'd), as zstd over their text
 * stores at best the 4 bits a digit packing does.
 * With {@link ColumnarConfig.Effort#FAST} lines are only plain (zstd'd when that helps) and metadata
 * only constant or raw: one compression per column, no tokenizing or value hashing; with
 * {@link ColumnarConfig.Effort#UNCOMPRESSED} the same encodings, never compressed.
 *
 * <p>Not thread-safe: holds scratch buffers and a native zstd context; one per writer. The
 * {@link Encoded} results point into scratch buffers and are valid until the next call.
 */
final class ColumnarColumnEncoder implements AutoCloseable {
    /** {@link #HEX_CLASS} bits: an ASCII digit, a lowercase a-f, an uppercase A-F, anything else. */
    private static final int DIGIT = 1;
    private static final int LOWER = 2;
    private static final int UPPER = 4;
    private static final int NOT_HEX = 8;
    /** Per byte value its hex class bit. */
    private static final byte[] HEX_CLASS = new byte[256];
    /** Per hex digit byte its value 0-15 (0 for other bytes, which {@link #HEX_CLASS} rules out first). */
    private static final byte[] HEX_VALUE = new byte[256];

    static {
        Arrays.fill(HEX_CLASS, (byte) NOT_HEX);
        for (int c = '0'; c <= '9'; c++) {
            HEX_CLASS[c] = DIGIT;
            HEX_VALUE[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            HEX_CLASS[c] = LOWER;
            HEX_VALUE[c] = (byte) (c - 'a' + 10);
            HEX_CLASS[c - 32] = UPPER;
            HEX_VALUE[c - 32] = (byte) (c - 'a' + 10);
        }
    }

    /**
     * Lines whose token dictionary is under this share of their bytes repeat their tokens a lot; on
     * such blocks tokenized lines came out 30–40 % smaller than zstd over the plain bytes in every
     * measurement (ColumnarFootprintReport), so the plain attempt, which costs a second compression
     * of the block, is skipped.
     */
    private static final double MAX_DICTIONARY_SHARE_WITHOUT_PLAIN = 0.125;
    /** Below this many payload bytes zstd's frame header (~10 bytes) leaves nothing to gain. */
    private static final int MIN_ZSTD_BYTES = 32;

    private final ZstdCompressCtx zstd;
    private final boolean fast;
    private final boolean compress;
    // small first sizes, so their growth runs in the warm-up's small blocks too (see ColumnarLineTokens' buffers)
    private final ByteSink first = new ByteSink(ColumnarLineTokens.INITIAL_BUFFER_BYTES);
    private final ByteSink second = new ByteSink(ColumnarLineTokens.INITIAL_BUFFER_BYTES);
    private final ByteSink third = new ByteSink(ColumnarLineTokens.INITIAL_BUFFER_BYTES);
    private final ColumnarLineTokens tokens = new ColumnarLineTokens();
    private byte[] compressed = new byte[ColumnarLineTokens.INITIAL_BUFFER_BYTES];
    private byte[] bestCompressed = new byte[ColumnarLineTokens.INITIAL_BUFFER_BYTES];

    ColumnarColumnEncoder(int zstdLevel, ColumnarConfig.Effort effort) {
        fast = effort != ColumnarConfig.Effort.SMALLEST;
        compress = effort != ColumnarConfig.Effort.UNCOMPRESSED;
        zstd = new ZstdCompressCtx();
        zstd.setLevel(zstdLevel);
    }

    /** One encoded column: stored bytes {@code bytes[0, length)}. */
    record Encoded(ColumnarEncoding encoding, boolean zstd, byte[] bytes, int length, int decodedSize) {}

    Encoded timestamps(long[] timestamps, int rows) {
        ByteSink delta = first;
        delta.reset();
        ByteSink deltaOfDelta = second;
        deltaOfDelta.reset();
        long previous = 0;
        long previousDelta = 0;
        for (int i = 0; i < rows; i++) {
            long d = timestamps[i] - previous;
            delta.writeUvarint(i == 0 ? zigzag(d) : d); // rows are sorted: deltas are unsigned
            deltaOfDelta.writeUvarint(zigzag(i <= 1 ? d : d - previousDelta));
            previousDelta = d;
            previous = timestamps[i];
        }
        boolean useDelta = delta.size() <= deltaOfDelta.size();
        return best(useDelta ? ColumnarEncoding.TIMESTAMP_DELTA : ColumnarEncoding.TIMESTAMP_DELTA_OF_DELTA,
                useDelta ? delta : deltaOfDelta, null, null, null, null);
    }

    /**
     * Lines of {@code rows} at positions {@code order[from, to)}; when {@code words} is not null and the lines are
     * tokenized (not with {@link ColumnarConfig.Effort#FAST} or less), their words are collected into it.
     */
    Encoded lines(ColumnarRows rows, int[] order, int from, int to, LineWords words) {
        if (fast) {
            return plainLines(rows, order, from, to);
        }
        double dictionaryShare = tokens.encode(rows, order, from, to, zstd, third, words);
        Encoded tokenized = new Encoded(ColumnarEncoding.LINES_TOKENIZED_RANGES, false, third.array(), third.size(),
                third.size());
        if (dictionaryShare < MAX_DICTIONARY_SHARE_WITHOUT_PLAIN) {
            return tokenized;
        }
        Encoded plain = plainLines(rows, order, from, to);
        return tokenized.length() < plain.length() ? tokenized : plain;
    }

    /** Lines as {@link ColumnarEncoding#LINES}: lengths then bytes, zstd'd when that is smaller. */
    private Encoded plainLines(ColumnarRows rows, int[] order, int from, int to) {
        ByteSink payload = first;
        payload.reset();
        for (int i = from; i < to; i++) {
            payload.writeUvarint(rows.lineLength(order[i]));
        }
        byte[] bytes = rows.lineBytes();
        for (int i = from; i < to; i++) {
            int row = order[i];
            payload.writeBytes(bytes, rows.lineOffset(row), rows.lineLength(row));
        }
        return best(ColumnarEncoding.LINES, payload, null, null, null, null);
    }

    /**
     * One metadata key's column for a block of {@code blockRows} rows.
     *
     * @param presentRows block-relative rows that have the key, ascending, {@code count} of them
     * @param values the array holding the values
     * @param starts start of each present row's value in {@code values}
     * @param ends end of each present row's value in {@code values}
     */
    Encoded metadata(int blockRows, int[] presentRows, int count, byte[] values, int[] starts, int[] ends) {
        ByteSink raw = first;
        raw.reset();
        writePresence(raw, blockRows, presentRows, count);
        int presenceBytes = raw.size();
        boolean constant = true;
        for (int i = 1; i < count && constant; i++) {
            constant = Arrays.equals(values, starts[i], ends[i], values, starts[0], ends[0]);
        }
        if (constant) {
            raw.writeUvarint(ends[0] - starts[0]);
            raw.writeBytes(values, starts[0], ends[0] - starts[0]);
            return best(ColumnarEncoding.METADATA_CONSTANT, raw, null, null, null, null);
        }
        for (int i = 0; i < count; i++) {
            raw.writeUvarint(ends[i] - starts[i]);
        }
        for (int i = 0; i < count; i++) {
            raw.writeBytes(values, starts[i], ends[i] - starts[i]);
        }
        if (fast) {
            return best(ColumnarEncoding.METADATA_RAW, raw, null, null, null, null);
        }
        ByteSink dictionary = dictionary(second, raw, presenceBytes, count, values, starts, ends);
        ByteSink hex = hex(third, raw, presenceBytes, count, values, starts, ends);
        if (dictionary == null && hex != null) {
            // diverse hex ids: packing them is what zstd over the text would achieve at best (4 bits a digit),
            // at half the input, so the raw text is not compressed as well
            return best(ColumnarEncoding.METADATA_HEX, hex, null, null, null, null);
        }
        return best(ColumnarEncoding.METADATA_RAW, raw, ColumnarEncoding.METADATA_DICTIONARY, dictionary,
                ColumnarEncoding.METADATA_HEX, hex);
    }

    private static void writePresence(ByteSink out, int blockRows, int[] presentRows, int count) {
        if (count == blockRows) {
            out.writeByte(0);
            return;
        }
        out.writeByte(1);
        byte[] bitmap = new byte[(blockRows + 7) >>> 3];
        for (int i = 0; i < count; i++) {
            bitmap[presentRows[i] >>> 3] |= (byte) (1 << (presentRows[i] & 7));
        }
        out.writeBytes(bitmap, 0, bitmap.length);
    }

    /** Dictionary payload into {@code out}, or null when values are too diverse for it to pay. */
    private static ByteSink dictionary(ByteSink out, ByteSink raw, int presenceBytes, int count, byte[] values,
            int[] starts, int[] ends) {
        Map<Slice, Integer> ids = new HashMap<>();
        int[] rowIds = new int[count];
        int limit = count / 2;
        for (int i = 0; i < count; i++) {
            Slice slice = new Slice(values, starts[i], ends[i]);
            Integer id = ids.get(slice);
            if (id == null) {
                if (ids.size() >= limit) {
                    return null;
                }
                id = ids.size();
                ids.put(slice, id);
            }
            rowIds[i] = id;
        }
        Slice[] distinct = new Slice[ids.size()];
        ids.forEach((slice, id) -> distinct[id] = slice);
        out.reset();
        out.writeBytes(raw.array(), 0, presenceBytes);
        out.writeUvarint(distinct.length);
        for (Slice slice : distinct) {
            out.writeUvarint(slice.end - slice.start);
            out.writeBytes(values, slice.start, slice.end - slice.start);
        }
        for (int id : rowIds) {
            out.writeUvarint(id);
        }
        return out;
    }

    /** Hex payload into {@code out}, or null when some value is not even-length hex of the column's case. */
    private static ByteSink hex(ByteSink out, ByteSink raw, int presenceBytes, int count, byte[] values, int[] starts,
            int[] ends) {
        int fixedLength = ends[0] - starts[0];
        int seen = 0;
        long total = 0;
        for (int i = 0; i < count; i++) {
            int length = ends[i] - starts[i];
            if ((length & 1) != 0) {
                return null;
            }
            if (length != fixedLength) {
                fixedLength = -1;
            }
            total += length / 2;
            for (int p = starts[i]; p < ends[i]; p++) {
                seen |= HEX_CLASS[values[p] & 0xFF];
            }
            if ((seen & NOT_HEX) != 0 || (seen & (LOWER | UPPER)) == (LOWER | UPPER)) {
                return null; // a byte outside [0-9a-fA-F], or letters of both cases
            }
        }
        boolean lower = (seen & UPPER) == 0;
        out.reset();
        out.writeBytes(raw.array(), 0, presenceBytes);
        out.writeByte(lower ? 0 : 1);
        out.writeUvarint(fixedLength + 1L);
        if (fixedLength < 0) {
            for (int i = 0; i < count; i++) {
                out.writeUvarint((ends[i] - starts[i]) / 2);
            }
        }
        int at = out.claim(Math.toIntExact(total));
        byte[] target = out.array();
        for (int i = 0; i < count; i++) {
            for (int p = starts[i]; p < ends[i]; p += 2) {
                target[at++] = (byte) ((HEX_VALUE[values[p] & 0xFF] << 4) | HEX_VALUE[values[p + 1] & 0xFF]);
            }
        }
        return out;
    }

    /** The smallest of up to three payloads, each as is or zstd'd. */
    private Encoded best(ColumnarEncoding encodingA, ByteSink a, ColumnarEncoding encodingB, ByteSink b,
            ColumnarEncoding encodingC, ByteSink c) {
        ColumnarEncoding bestEncoding = encodingA;
        ByteSink bestPayload = a;
        if (b != null && b.size() < bestPayload.size()) {
            bestEncoding = encodingB;
            bestPayload = b;
        }
        if (c != null && c.size() < bestPayload.size()) {
            bestEncoding = encodingC;
            bestPayload = c;
        }
        int bestSize = bestPayload.size();
        ColumnarEncoding bestZstdEncoding = null;
        int bestZstdPayloadSize = 0;
        int bestZstdSize = Integer.MAX_VALUE;
        ColumnarEncoding[] encodings = {encodingA, encodingB, encodingC};
        ByteSink[] payloads = {a, b, c};
        for (int i = 0; i < 3; i++) {
            ByteSink payload = payloads[i];
            if (!compress || payload == null || payload.size() < MIN_ZSTD_BYTES) {
                continue;
            }
            int n = compress(payload);
            if (n < bestZstdSize) {
                bestZstdSize = n;
                bestZstdEncoding = encodings[i];
                bestZstdPayloadSize = payload.size();
                byte[] swap = bestCompressed;
                bestCompressed = compressed;
                compressed = swap;
            }
        }
        if (bestZstdEncoding != null && bestZstdSize < bestSize) {
            return new Encoded(bestZstdEncoding, true, bestCompressed, bestZstdSize, bestZstdPayloadSize);
        }
        return new Encoded(bestEncoding, false, bestPayload.array(), bestSize, bestSize);
    }

    private int compress(ByteSink payload) {
        int bound = (int) Zstd.compressBound(payload.size());
        if (compressed.length < bound) {
            compressed = new byte[Math.max(bound, compressed.length * 2)];
        }
        return zstd.compressByteArray(compressed, 0, compressed.length, payload.array(), 0, payload.size());
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    @Override
    public void close() {
        zstd.close();
    }

    /** A byte range compared by content, the dictionary's key. */
    private record Slice(byte[] array, int start, int end) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Slice other && Arrays.equals(array, start, end, other.array, other.start, other.end);
        }

        @Override
        public int hashCode() {
            int h = 1;
            for (int i = start; i < end; i++) {
                h = 31 * h + array[i];
            }
            return h;
        }
    }
}
