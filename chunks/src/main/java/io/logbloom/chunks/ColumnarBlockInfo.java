package io.logbloom.chunks;

import java.util.List;

/**
 * One block's entry in a columnar object's directory: its stream, row count, time range, raw bytes
 * and columns (timestamps, lines, then one per metadata key present in the block, sorted by key).
 * Immutable.
 *
 * @param stream index of the block's stream in {@link ColumnarDirectory#streams()}
 * @param rows rows in the block
 * @param minTimeNanos smallest timestamp
 * @param maxTimeNanos largest timestamp
 * @param rawBytes line plus metadata bytes of the rows, as the writer counted them for cutting
 * @param distinctTimestamps whether the rows' timestamps strictly increase, so no two rows repeat a (timestamp,
 *        line) pair and the row count is what a deduplicating read returns (false when unknown: objects of
 *        version 2)
 * @param columns the block's columns, stored back to back in this order
 */
public record ColumnarBlockInfo(int stream, int rows, long minTimeNanos, long maxTimeNanos, long rawBytes,
        boolean distinctTimestamps, List<ColumnarColumnInfo> columns) {
    public ColumnarBlockInfo {
        columns = List.copyOf(columns);
        if (columns.size() < 2 || columns.get(0).kind() != ColumnarColumnInfo.Kind.TIMESTAMPS
                || columns.get(1).kind() != ColumnarColumnInfo.Kind.LINES) {
            throw new IllegalArgumentException("a block's first columns must be timestamps and lines: " + columns);
        }
    }

    /** The timestamp column. */
    public ColumnarColumnInfo timestamps() {
        return columns.get(0);
    }

    /** The line column. */
    public ColumnarColumnInfo lines() {
        return columns.get(1);
    }

    /** The column of metadata key {@code key}, or null when no row of the block has it. */
    public ColumnarColumnInfo metadata(String key) {
        for (int i = 2; i < columns.size(); i++) {
            if (columns.get(i).key().equals(key)) {
                return columns.get(i);
            }
        }
        return null;
    }

    /** Whether any row may have a timestamp in [fromNanos, throughNanos]. */
    public boolean overlaps(long fromNanos, long throughNanos) {
        return maxTimeNanos >= fromNanos && minTimeNanos <= throughNanos;
    }

    /** First byte of the block's columns in the object. */
    public long offset() {
        return columns.get(0).offset();
    }

    /**
     * Stored bytes of the block's timestamp and line columns, its first two: all a reader of no metadata needs (a
     * count), in one read from {@link #offset()}.
     */
    public long timestampsAndLinesLength() {
        return lines().offset() + lines().length() - offset();
    }

    /** Stored bytes of all the block's columns (they are contiguous). */
    public long length() {
        ColumnarColumnInfo last = columns.get(columns.size() - 1);
        return last.offset() + last.length() - offset();
    }
}
