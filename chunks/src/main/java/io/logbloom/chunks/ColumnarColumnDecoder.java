package io.logbloom.chunks;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;

/**
 * Decodes stored columns written by {@link ColumnarColumnEncoder}: checks the CRC32C, inflates zstd
 * to exactly the recorded size, then parses the payload with bounds checks, so corrupt bytes end in
 * a {@link ChunkFormatException} naming the object, block and column, never in wrong rows.
 * Thread-safe (stateless).
 */
final class ColumnarColumnDecoder {
    private ColumnarColumnDecoder() {}

    /**
     * The payload of {@code column}, whose stored bytes are {@code data[offset, offset+column.length())}.
     *
     * @param where "object X block N column Y", for messages
     */
    static byte[] payload(byte[] data, int offset, ColumnarColumnInfo column, String where, ZstdInflater inflater)
            throws ChunkFormatException {
        verify(data, offset, column, where);
        return inflateVerified(data, offset, column, where, inflater);
    }

    /** As {@link #payload}, for a column whose checksum the caller has already verified. */
    static byte[] inflateVerified(byte[] data, int offset, ColumnarColumnInfo column, String where,
            ZstdInflater inflater) throws ChunkFormatException {
        if (!column.zstd()) {
            checkPlain(column, where);
            byte[] payload = new byte[column.length()];
            System.arraycopy(data, offset, payload, 0, column.length());
            return payload;
        }
        return inflate(data, offset, column.length(), column.decodedSize(), where, inflater);
    }

    /** Checks that a column stored plain declares its stored length as its decoded size. */
    static void checkPlain(ColumnarColumnInfo column, String where) throws ChunkFormatException {
        if (column.decodedSize() != column.length()) {
            throw new ChunkFormatException(where + ": plain column of " + column.length()
                    + " bytes declares decoded size " + column.decodedSize());
        }
    }

    /** Checks a stored column's CRC32C. */
    static void verify(byte[] data, int offset, ColumnarColumnInfo column, String where) throws ChunkFormatException {
        int crc = ColumnarLayout.crc32c(data, offset, column.length());
        if (crc != column.crc32c()) {
            throw new ChunkFormatException(String.format("%s: checksum mismatch: stored %08x, computed %08x", where,
                    column.crc32c(), crc));
        }
    }

    /** Inflates one zstd frame that must yield exactly {@code size} bytes. */
    static byte[] inflate(byte[] data, int offset, int length, int size, String where, ZstdInflater inflater)
            throws ChunkFormatException {
        byte[] out = new byte[size];
        long n;
        try {
            n = inflater.inflate(out, 0, size, data, offset, length);
        } catch (ZstdException e) {
            throw new ChunkFormatException(where + ": invalid zstd data: " + e.getMessage(), e);
        }
        if (Zstd.isError(n)) {
            throw new ChunkFormatException(where + ": invalid zstd data: " + Zstd.getErrorName(n));
        }
        if (n != size) {
            throw new ChunkFormatException(where + ": zstd inflated to " + n + " bytes, expected " + size);
        }
        return out;
    }

    static long[] timestamps(byte[] payload, ColumnarColumnInfo column, int rows, String where)
            throws ChunkFormatException {
        ByteSource in = new ByteSource(payload, 0, payload.length, where);
        long[] timestamps = new long[rows];
        boolean deltaOfDelta = switch (column.encoding()) {
            case TIMESTAMP_DELTA -> false;
            case TIMESTAMP_DELTA_OF_DELTA -> true;
            default -> throw wrongEncoding(column, where);
        };
        long previous = 0;
        long delta = 0;
        for (int i = 0; i < rows; i++) {
            long raw = in.readUvarint();
            long v = deltaOfDelta || i == 0 ? unzigzag(raw) : raw;
            delta = deltaOfDelta && i > 1 ? delta + v : v;
            previous += delta;
            timestamps[i] = previous;
        }
        expectEnd(in, where);
        return timestamps;
    }

    static ColumnarLines lines(byte[] payload, ColumnarColumnInfo column, int rows, String where)
            throws ChunkFormatException {
        if (column.encoding().tokenized()) {
            boolean ranges = column.encoding() == ColumnarEncoding.LINES_TOKENIZED_RANGES;
            return ColumnarLineTokens.decode(payload, rows, ranges, where);
        }
        if (column.encoding() != ColumnarEncoding.LINES) {
            throw wrongEncoding(column, where);
        }
        ByteSource in = new ByteSource(payload, 0, payload.length, where);
        int[] offsets = new int[rows + 1];
        long total = 0;
        for (int i = 0; i < rows; i++) {
            total += in.readLength(payload.length, "line length");
            offsets[i + 1] = (int) Math.min(total, Integer.MAX_VALUE);
        }
        int start = in.position();
        if (total != payload.length - start) {
            throw new ChunkFormatException(where + ": line lengths sum to " + total + " bytes but "
                    + (payload.length - start) + " follow");
        }
        for (int i = 0; i <= rows; i++) {
            offsets[i] += start;
        }
        return new ColumnarLines(payload, offsets, rows);
    }

    /** Which rows of a line column contain {@code literal}; a tokenized column is searched on its tokens. */
    static boolean[] rowsContaining(byte[] payload, ColumnarColumnInfo column, int rows, String where, byte[] literal)
            throws ChunkFormatException {
        if (column.encoding().tokenized()) {
            return ColumnarLineTokens.rowsContaining(payload, rows,
                    column.encoding() == ColumnarEncoding.LINES_TOKENIZED_RANGES, where, literal);
        }
        ColumnarLines lines = lines(payload, column, rows, where);
        boolean[] out = new boolean[rows];
        for (int row = 0; row < rows; row++) {
            out[row] = ColumnarLineTokens.indexOf(lines.bytes(), lines.offset(row), lines.length(row), literal) >= 0;
        }
        return out;
    }

    static ColumnarValues metadata(byte[] payload, ColumnarColumnInfo column, int rows, String where)
            throws ChunkFormatException {
        ByteSource in = new ByteSource(payload, 0, payload.length, where);
        int[] valueIndex = new int[rows];
        int present = readPresence(in, payload, rows, valueIndex, where);
        ColumnarValues values = switch (column.encoding()) {
            case METADATA_CONSTANT -> {
                if (present == 0) {
                    throw new ChunkFormatException(where + ": constant column with no present row");
                }
                for (int i = 0; i < rows; i++) {
                    valueIndex[i] = valueIndex[i] < 0 ? -1 : 0;
                }
                yield ColumnarValues.ofDistinct(rows, valueIndex, new String[] {in.readString("constant value")});
            }
            case METADATA_DICTIONARY -> {
                int count = in.readLength(present, "dictionary size");
                String[] distinct = new String[count];
                for (int i = 0; i < count; i++) {
                    distinct[i] = in.readString("dictionary value");
                }
                for (int i = 0; i < rows; i++) {
                    if (valueIndex[i] >= 0) {
                        valueIndex[i] = in.readLength(count - 1, "dictionary id");
                    }
                }
                yield ColumnarValues.ofDistinct(rows, valueIndex, distinct);
            }
            case METADATA_RAW -> {
                int[] ends = readLengths(in, present, payload.length, "value length");
                int start = valuesStart(in, payload, ends, present, where);
                yield ColumnarValues.ofBytes(rows, valueIndex, payload, start, ends);
            }
            case METADATA_HEX -> {
                int caseFlag = in.readByte();
                if (caseFlag > 1) {
                    throw new ChunkFormatException(where + ": hex case flag " + caseFlag + " is not 0 or 1");
                }
                long fixed = in.readUvarint() - 1;
                int[] ends;
                if (fixed >= 0) {
                    if (fixed % 2 != 0 || (long) present * (fixed / 2) > payload.length) {
                        throw new ChunkFormatException(where + ": bad fixed hex length " + fixed);
                    }
                    ends = new int[present];
                    for (int i = 0; i < present; i++) {
                        ends[i] = (int) ((i + 1) * (fixed / 2));
                    }
                } else {
                    ends = readLengths(in, present, payload.length, "hex value length");
                }
                int start = valuesStart(in, payload, ends, present, where);
                yield ColumnarValues.ofHex(rows, valueIndex, payload, start, ends, caseFlag == 1);
            }
            default -> throw wrongEncoding(column, where);
        };
        expectEnd(in, where);
        return values;
    }

    /** Fills {@code valueIndex} with present-row ranks (or -1) and returns the present count. */
    private static int readPresence(ByteSource in, byte[] payload, int rows, int[] valueIndex, String where)
            throws ChunkFormatException {
        int mode = in.readByte();
        if (mode == 0) {
            for (int i = 0; i < rows; i++) {
                valueIndex[i] = i;
            }
            return rows;
        }
        if (mode != 1) {
            throw new ChunkFormatException(where + ": presence mode " + mode + " is not 0 or 1");
        }
        int bitmapBytes = (rows + 7) >>> 3;
        int start = in.position();
        for (int i = 0; i < bitmapBytes; i++) {
            in.readByte();
        }
        int present = 0;
        for (int i = 0; i < rows; i++) {
            boolean set = (payload[start + (i >>> 3)] & (1 << (i & 7))) != 0;
            valueIndex[i] = set ? present++ : -1;
        }
        return present;
    }

    private static int[] readLengths(ByteSource in, int count, int max, String what) throws ChunkFormatException {
        int[] ends = new int[count];
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += in.readLength(max, what);
            if (total > max) {
                throw new ChunkFormatException("value lengths exceed the column's " + max + " bytes");
            }
            ends[i] = (int) total;
        }
        return ends;
    }

    /**
     * Where the values start in {@code payload}: the bytes after the lengths, which must be exactly the sum of the value
     * lengths. Shifts {@code ends} (from the values' start) to offsets in {@code payload}, so the values are read in
     * place (the payload is this column's own inflated copy) instead of copied out: a needle decodes a block's
     * trace ids, 16 bytes a row, for one comparison each.
     */
    private static int valuesStart(ByteSource in, byte[] payload, int[] ends, int count, String where)
            throws ChunkFormatException {
        int total = count == 0 ? 0 : ends[count - 1];
        int start = in.position();
        if (payload.length - start != total) {
            throw new ChunkFormatException(where + ": values need " + total + " bytes but " + (payload.length - start)
                    + " follow");
        }
        for (int i = 0; i < count; i++) {
            ends[i] += start;
        }
        in.skip(total);
        return start;
    }

    private static void expectEnd(ByteSource in, String where) throws ChunkFormatException {
        if (in.hasRemaining()) {
            throw new ChunkFormatException(where + ": trailing bytes after the last row at offset " + in.position());
        }
    }

    private static ChunkFormatException wrongEncoding(ColumnarColumnInfo column, String where) {
        return new ChunkFormatException(where + ": encoding " + column.encoding() + " does not fit a "
                + column.kind() + " column");
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
