package io.logbloom.chunks;

import java.util.List;

/**
 * The decoded metadata columns of one block ({@link ColumnarBlock#metadataColumns()}): per key, in the block's
 * (sorted) key order, its column of values. Rows are copied from it into {@link ColumnarRows} as bytes, without a
 * string or label per value (a merge copies every row of its parts this way). Immutable and thread-safe.
 */
public final class ColumnarMetadata {
    private final List<String> keys;
    private final ColumnarValues[] columns;

    ColumnarMetadata(List<String> keys, ColumnarValues[] columns) {
        this.keys = List.copyOf(keys);
        this.columns = columns.clone();
    }

    /** The number of keys (columns). */
    int keyCount() {
        return columns.length;
    }

    /** The name of key {@code k}. */
    String key(int k) {
        return keys.get(k);
    }

    /** The values of key {@code k}. */
    ColumnarValues column(int k) {
        return columns[k];
    }
}
