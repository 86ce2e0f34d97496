package io.logbloom.chunks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A growable columnar buffer of one stream's rows: timestamps in a {@code long[]}, lines as one
 * UTF-8 byte array with end offsets, structured metadata as (key id, value end) pairs over one value
 * byte array. No object is kept per row, so ingest can account its memory exactly
 * ({@link #retainedBytes()}) and hand it to {@link ColumnarObjectWriter} without conversion.
 *
 * <p>Rows may be appended in any timestamp order; {@link #isSortedByTime()} says whether they came
 * sorted, and the writer sorts (stably) when they did not. A metadata key may appear at most once per
 * row; a row without a key reads back as absent, distinct from an empty value. Metadata of a row is
 * returned in the order it was appended. Not thread-safe: the owner (one stream's buffer) guards it.
 */
public final class ColumnarRows {
    private static final int INITIAL_ROWS = 16;
    private static final int RECENT_KEY_POSITIONS = 4;

    private int size;
    private long[] timestamps = new long[INITIAL_ROWS];
    private int[] lineEnds = new int[INITIAL_ROWS];
    private byte[] lineBytes = new byte[1024];
    private int lineBytesSize;
    /** Per row, the end (in pairs) of its metadata pairs in {@link #metaPairs}. */
    private int[] metaEnds = new int[INITIAL_ROWS];
    /** Pairs of (key id, end offset of the value in {@link #metaValues}). */
    private int[] metaPairs = new int[INITIAL_ROWS * 2];
    private int metaPairCount;
    private byte[] metaValues = new byte[256];
    private int metaValuesSize;
    private final List<String> keyNames = new ArrayList<>();
    /**
     * Per metadata position of a row (the first {@link #RECENT_KEY_POSITIONS}), the key name {@link #keyId}
     * answered last there and its id: rows repeat their keys in the same order, and a push decoder hands
     * over one instance per name, so the next row compares by identity and a row of the next push by
     * content, without hashing.
     */
    private final String[] recentKeyNames = new String[RECENT_KEY_POSITIONS];
    private final int[] recentKeyIds = new int[RECENT_KEY_POSITIONS];
    private final List<byte[]> keyNamesUtf8 = new ArrayList<>();
    private final Map<String, Integer> keyIds = new HashMap<>();
    private boolean sortedByTime = true;
    private long rawBytes;

    /** An empty buffer. */
    public ColumnarRows() {}

    /** A buffer holding {@code entries} in their order. */
    public static ColumnarRows of(List<LogEntry> entries) {
        ColumnarRows rows = new ColumnarRows();
        for (LogEntry entry : entries) {
            rows.append(entry);
        }
        return rows;
    }

    /**
     * Appends one row: {@code utf8Line[offset, offset+length)} is copied.
     *
     * @throws IllegalArgumentException when a metadata key repeats within the row
     */
    public void append(long timestampNanos, byte[] utf8Line, int offset, int length, List<Label> metadata) {
        int pairsStart = metaPairCount;
        int valuesStart = metaValuesSize;
        long rowRaw = length;
        for (int m = 0, n = metadata.size(); m < n; m++) {
            Label label = metadata.get(m);
            int keyId = keyId(m, label.name());
            for (int p = pairsStart; p < metaPairCount; p++) {
                if (metaPairs[2 * p] == keyId) {
                    metaPairCount = pairsStart;
                    metaValuesSize = valuesStart;
                    throw new IllegalArgumentException("duplicate structured metadata key '" + label.name() + "'");
                }
            }
            int valueLength = putValue(label.value());
            rowRaw += addPair(keyId, valueLength);
        }
        appendRow(timestampNanos, utf8Line, offset, length, rowRaw);
    }

    /**
     * Appends one row whose metadata is row {@code sourceRow} of {@code metadata} (a block's decoded columns), in
     * the block's key order: values stored as UTF-8 are copied as bytes, others (dictionary, hex) as their text.
     * {@code utf8Line[offset, offset+length)} is copied.
     */
    public void append(long timestampNanos, byte[] utf8Line, int offset, int length, ColumnarMetadata metadata,
            int sourceRow) {
        long rowRaw = length;
        for (int k = 0, position = 0, n = metadata.keyCount(); k < n; k++) {
            ColumnarValues column = metadata.column(k);
            int index = column.valueIndex(sourceRow);
            if (index < 0) {
                continue;
            }
            int keyId = keyId(position++, metadata.key(k)); // a block's keys are distinct: no repeat to check
            int valueLength;
            if (column.holdsUtf8()) {
                int start = column.valueStart(index);
                valueLength = column.valueEnd(index) - start;
                metaValues = grow(metaValues, metaValuesSize + valueLength);
                System.arraycopy(column.data(), start, metaValues, metaValuesSize, valueLength);
            } else {
                valueLength = putValue(column.value(sourceRow));
            }
            rowRaw += addPair(keyId, valueLength);
        }
        appendRow(timestampNanos, utf8Line, offset, length, rowRaw);
    }

    /**
     * Records the pair of key {@code keyId} and the value of {@code valueLength} bytes just written at the end of
     * {@link #metaValues}; returns the pair's raw bytes (key name and value).
     */
    private int addPair(int keyId, int valueLength) {
        metaValuesSize += valueLength;
        if (2 * metaPairCount + 2 > metaPairs.length) {
            metaPairs = Arrays.copyOf(metaPairs, Math.max(2 * metaPairCount + 2, metaPairs.length * 2));
        }
        metaPairs[2 * metaPairCount] = keyId;
        metaPairs[2 * metaPairCount + 1] = metaValuesSize;
        metaPairCount++;
        return keyNamesUtf8.get(keyId).length + valueLength;
    }

    /** Appends the row whose metadata pairs were just added: its time, its line (copied) and its raw bytes. */
    private void appendRow(long timestampNanos, byte[] utf8Line, int offset, int length, long rowRaw) {
        if (size == timestamps.length) {
            int capacity = size * 2;
            timestamps = Arrays.copyOf(timestamps, capacity);
            lineEnds = Arrays.copyOf(lineEnds, capacity);
            metaEnds = Arrays.copyOf(metaEnds, capacity);
        }
        lineBytes = grow(lineBytes, lineBytesSize + length);
        System.arraycopy(utf8Line, offset, lineBytes, lineBytesSize, length);
        lineBytesSize += length;
        if (size > 0 && timestampNanos < timestamps[size - 1]) {
            sortedByTime = false;
        }
        timestamps[size] = timestampNanos;
        lineEnds[size] = lineBytesSize;
        metaEnds[size] = metaPairCount;
        size++;
        rawBytes += rowRaw;
    }

    /** Appends one row from a line string. */
    public void append(long timestampNanos, String line, List<Label> metadata) {
        byte[] utf8 = line.getBytes(StandardCharsets.UTF_8);
        append(timestampNanos, utf8, 0, utf8.length, metadata);
    }

    /** Appends one entry. */
    public void append(LogEntry entry) {
        append(entry.timestampNanos(), entry.line(), entry.metadata());
    }

    /**
     * Writes {@code value}'s UTF-8 bytes at the end of {@link #metaValues} (not counted in its size yet) and
     * returns their number: ASCII, as ids and levels are, is copied char by char without a temporary array.
     */
    private int putValue(String value) {
        int n = value.length();
        metaValues = grow(metaValues, metaValuesSize + n);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                metaValues = grow(metaValues, metaValuesSize + utf8.length);
                System.arraycopy(utf8, 0, metaValues, metaValuesSize, utf8.length);
                return utf8.length;
            }
            metaValues[metaValuesSize + i] = (byte) c;
        }
        return n;
    }

    private static byte[] grow(byte[] array, int needed) {
        if (needed <= array.length) {
            return array;
        }
        long wanted = Math.max((long) array.length * 2, needed);
        if (wanted > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("columnar rows would exceed 2 GiB in one array: " + wanted);
        }
        return Arrays.copyOf(array, (int) wanted);
    }

    /** The id of key {@code name}, at metadata position {@code position} of its row. */
    private int keyId(int position, String name) {
        if (position >= RECENT_KEY_POSITIONS) {
            return lookUpKey(name);
        }
        String recent = recentKeyNames[position];
        if (name == recent) {
            return recentKeyIds[position];
        }
        if (recent != null && recent.equals(name)) { // the same name from the next push: its own instance
            recentKeyNames[position] = name;
            return recentKeyIds[position];
        }
        int id = lookUpKey(name);
        recentKeyNames[position] = name;
        recentKeyIds[position] = id;
        return id;
    }

    private int lookUpKey(String name) {
        Integer id = keyIds.get(name);
        if (id == null) {
            id = keyNames.size();
            keyIds.put(name, id);
            keyNames.add(name);
            keyNamesUtf8.add(name.getBytes(StandardCharsets.UTF_8));
        }
        return id;
    }

    /** Drops all rows, keeping the allocated arrays for reuse. */
    public void clear() {
        size = 0;
        lineBytesSize = 0;
        metaPairCount = 0;
        metaValuesSize = 0;
        keyNames.clear();
        keyNamesUtf8.clear();
        keyIds.clear();
        Arrays.fill(recentKeyNames, null);
        sortedByTime = true;
        rawBytes = 0;
    }

    /** The number of rows. */
    public int size() {
        return size;
    }

    /** Whether rows were appended in non-decreasing timestamp order. */
    public boolean isSortedByTime() {
        return sortedByTime;
    }

    /** Raw bytes of all rows: line bytes plus metadata name and value bytes (UTF-8). */
    public long rawBytes() {
        return rawBytes;
    }

    /** Heap bytes held by this buffer's arrays (capacity, not just the used part). */
    public long retainedBytes() {
        return 8L * timestamps.length + 4L * lineEnds.length + lineBytes.length + 4L * metaEnds.length
                + 4L * metaPairs.length + metaValues.length + 64L * keyNames.size() + 96;
    }

    /**
     * Heap bytes the rows themselves take in this buffer's arrays (the used part of each; less than
     * {@link #retainedBytes()}, which counts capacity): what the rows would hold in arrays of exact size.
     */
    public long usedBytes() {
        return 16L * size + lineBytesSize + 8L * metaPairCount + metaValuesSize;
    }

    /** The timestamp of row {@code row}. */
    public long timestampNanos(int row) {
        return timestamps[checkRow(row)];
    }

    /** The array holding all line bytes; a row's line is at {@link #lineOffset}, {@link #lineLength}. */
    public byte[] lineBytes() {
        return lineBytes;
    }

    /** Offset of row {@code row}'s line in {@link #lineBytes()}. */
    public int lineOffset(int row) {
        return checkRow(row) == 0 ? 0 : lineEnds[row - 1];
    }

    /** Length in bytes of row {@code row}'s line. */
    public int lineLength(int row) {
        return lineEnds[checkRow(row)] - lineOffset(row);
    }

    /** Row {@code row}'s line as a string. */
    public String line(int row) {
        return new String(lineBytes, lineOffset(row), lineLength(row), StandardCharsets.UTF_8);
    }

    /** Row {@code row}'s metadata in append order. */
    public List<Label> metadata(int row) {
        int start = metaPairStart(row);
        int end = metaEnds[row];
        if (start == end) {
            return List.of();
        }
        Label[] labels = new Label[end - start];
        for (int p = start; p < end; p++) {
            int valueStart = metaValueStart(p);
            labels[p - start] = new Label(keyNames.get(metaPairs[2 * p]),
                    new String(metaValues, valueStart, metaPairs[2 * p + 1] - valueStart, StandardCharsets.UTF_8));
        }
        return List.of(labels);
    }

    /** Receives one metadata pair of a row: its key and its value as UTF-8 bytes {@code utf8[start, end)}. */
    @FunctionalInterface
    public interface MetadataVisitor {
        /** One pair; {@code utf8} is this buffer's value array, valid only during the call. */
        void pair(String key, byte[] keyUtf8, byte[] utf8, int start, int end);
    }

    /**
     * Passes row {@code row}'s metadata pairs, in append order, to {@code visitor} without making a string
     * or list per value (the merge feeds them to the blooms this way).
     */
    public void forEachMetadata(int row, MetadataVisitor visitor) {
        for (int p = metaPairStart(row); p < metaEnds[row]; p++) {
            int key = metaPairs[2 * p];
            visitor.pair(keyNames.get(key), keyNamesUtf8.get(key), metaValues, metaValueStart(p), metaPairs[2 * p + 1]);
        }
    }

    /** Row {@code row} as a log entry. */
    public LogEntry entry(int row) {
        return new LogEntry(timestampNanos(row), line(row), metadata(row));
    }

    /** Raw bytes of one row (line plus metadata names and values). */
    int rowRawBytes(int row) {
        int raw = lineLength(row);
        for (int p = metaPairStart(row); p < metaEnds[row]; p++) {
            raw += keyNamesUtf8.get(metaPairs[2 * p]).length + metaPairs[2 * p + 1] - metaValueStart(p);
        }
        return raw;
    }

    /** The number of distinct metadata keys seen since the last clear; key ids are [0, keyCount). */
    int keyCount() {
        return keyNames.size();
    }

    String keyName(int keyId) {
        return keyNames.get(keyId);
    }

    int metaPairStart(int row) {
        return checkRow(row) == 0 ? 0 : metaEnds[row - 1];
    }

    int metaPairEnd(int row) {
        return metaEnds[checkRow(row)];
    }

    int metaPairKey(int pair) {
        return metaPairs[2 * pair];
    }

    int metaValueStart(int pair) {
        return pair == 0 ? 0 : metaPairs[2 * pair - 1];
    }

    int metaValueEnd(int pair) {
        return metaPairs[2 * pair + 1];
    }

    byte[] metaValues() {
        return metaValues;
    }

    private int checkRow(int row) {
        if (row < 0 || row >= size) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + size + ")");
        }
        return row;
    }
}
