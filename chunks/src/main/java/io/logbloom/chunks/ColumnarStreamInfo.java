package io.logbloom.chunks;

import java.util.Objects;

/**
 * One stream's entry in a columnar object's directory: its labels and the contiguous run of blocks
 * holding its rows, with their totals. Immutable.
 *
 * @param labels the stream's labels (the fingerprint is {@code labels.fingerprint()})
 * @param firstBlock index of the stream's first block
 * @param blockCount number of blocks, all of this stream, from {@code firstBlock} on
 * @param minTimeNanos smallest timestamp
 * @param maxTimeNanos largest timestamp
 * @param rows rows of the stream in this object
 * @param rawBytes line plus metadata bytes of those rows
 */
public record ColumnarStreamInfo(Labels labels, int firstBlock, int blockCount, long minTimeNanos,
        long maxTimeNanos, long rows, long rawBytes) {
    public ColumnarStreamInfo {
        Objects.requireNonNull(labels, "labels is null");
    }

    /** The stream's fingerprint. */
    public long fingerprint() {
        return labels.fingerprint();
    }
}
