package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.List;

/**
 * All decoded columns of one block: timestamps, lines and each metadata column present in it.
 * Immutable after decoding and thread-safe.
 */
public final class ColumnarBlock {
    private final ColumnarBlockInfo info;
    private final long[] timestamps;
    private final ColumnarLines lines;
    private final List<String> keys;
    private final List<ColumnarValues> values;

    ColumnarBlock(ColumnarBlockInfo info, long[] timestamps, ColumnarLines lines, List<String> keys,
            List<ColumnarValues> values) {
        this.info = info;
        this.timestamps = timestamps;
        this.lines = lines;
        this.keys = List.copyOf(keys);
        this.values = List.copyOf(values);
    }

    /** The block's directory entry. */
    public ColumnarBlockInfo info() {
        return info;
    }

    /** The number of rows. */
    public int rows() {
        return info.rows();
    }

    /** Row {@code row}'s timestamp. */
    public long timestampNanos(int row) {
        return timestamps[row];
    }

    /** The line column. */
    public ColumnarLines lines() {
        return lines;
    }

    /** The metadata keys with a column in this block, sorted. */
    public List<String> keys() {
        return keys;
    }

    /** The column of {@code key}, or an all-absent column when the block has none. */
    public ColumnarValues metadata(String key) {
        int index = keys.indexOf(key);
        return index < 0 ? ColumnarValues.absent(rows()) : values.get(index);
    }

    /** Row {@code row}'s metadata, sorted by key. */
    public List<Label> metadata(int row) {
        List<Label> labels = null;
        for (int k = 0; k < keys.size(); k++) {
            String value = values.get(k).value(row);
            if (value != null) {
                if (labels == null) {
                    labels = new ArrayList<>(keys.size() - k);
                }
                labels.add(new Label(keys.get(k), value));
            }
        }
        return labels == null ? List.of() : labels;
    }

    /** Row {@code row} as a log entry (metadata sorted by key). */
    public LogEntry entry(int row) {
        return new LogEntry(timestamps[row], lines.line(row), metadata(row));
    }

    /** All rows as log entries, in time order. */
    public List<LogEntry> entries() {
        List<LogEntry> entries = new ArrayList<>(rows());
        for (int row = 0; row < rows(); row++) {
            entries.add(entry(row));
        }
        return entries;
    }
}
