package io.logbloom.chunks;

import java.util.Comparator;
import java.util.List;

/**
 * The directory of a columnar object: its streams (in stream order) and blocks (grouped by stream,
 * in time order within a stream), with every column's location. Immutable and thread-safe, so
 * callers may cache it per object key and hand it to new {@link ColumnarObjectReader}s.
 */
public final class ColumnarDirectory {
    /** The order streams have in an object: fingerprint (unsigned), ties by labels. */
    public static final Comparator<Labels> STREAM_ORDER =
            Comparator.comparing(Labels::fingerprint, Long::compareUnsigned).thenComparing(Comparator.naturalOrder());

    private final List<ColumnarStreamInfo> streams;
    private final List<ColumnarBlockInfo> blocks;
    private final long directoryOffset;
    private final int directoryLength;

    ColumnarDirectory(List<ColumnarStreamInfo> streams, List<ColumnarBlockInfo> blocks, long directoryOffset,
            int directoryLength) {
        this.streams = List.copyOf(streams);
        this.blocks = List.copyOf(blocks);
        this.directoryOffset = directoryOffset;
        this.directoryLength = directoryLength;
    }

    /** The scope of a block's bloom tokens: the object's key and the block's index in it. */
    public static String blockScope(String objectKey, int blockIndex) {
        return objectKey + "#" + blockIndex;
    }

    /** The streams, in stream order. */
    public List<ColumnarStreamInfo> streams() {
        return streams;
    }

    /** All blocks, grouped by stream. */
    public List<ColumnarBlockInfo> blocks() {
        return blocks;
    }

    /** The blocks of stream {@code streamIndex}, in time order. */
    public List<ColumnarBlockInfo> blocksOf(int streamIndex) {
        ColumnarStreamInfo stream = streams.get(streamIndex);
        return blocks.subList(stream.firstBlock(), stream.firstBlock() + stream.blockCount());
    }

    /** The index of the stream with {@code labels}, or -1 when the object does not hold it. */
    public int indexOf(Labels labels) {
        int low = 0;
        int high = streams.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = STREAM_ORDER.compare(streams.get(mid).labels(), labels);
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** Total rows in the object. */
    public long rows() {
        long rows = 0;
        for (ColumnarStreamInfo stream : streams) {
            rows += stream.rows();
        }
        return rows;
    }

    /** The smallest timestamp in the object, or Long.MAX_VALUE when empty. */
    public long minTimeNanos() {
        long min = Long.MAX_VALUE;
        for (ColumnarStreamInfo stream : streams) {
            min = Math.min(min, stream.minTimeNanos());
        }
        return min;
    }

    /** The largest timestamp in the object, or Long.MIN_VALUE when empty. */
    public long maxTimeNanos() {
        long max = Long.MIN_VALUE;
        for (ColumnarStreamInfo stream : streams) {
            max = Math.max(max, stream.maxTimeNanos());
        }
        return max;
    }

    /** Where the encoded directory starts in the object. */
    public long directoryOffset() {
        return directoryOffset;
    }

    /** The encoded directory's length in bytes. */
    public int directoryLength() {
        return directoryLength;
    }
}
