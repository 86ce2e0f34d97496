package io.logbloom.chunks;

/**
 * Scratch space one thread reuses for the literal searches of many blocks ({@link ColumnarBlock#rowsContaining(byte[],
 * ColumnarScanBuffers)}): a tokenized line column's dictionary, codes and numbers sections are inflated into these
 * arrays instead of into new arrays kept by the block, so a scan over more blocks than a cache holds allocates
 * almost nothing per block. The arrays grow to the largest section seen and stay that size: at most about ten bytes
 * per raw line byte of the largest block (the section bound), a few hundred KiB for the default 256 KiB blocks.
 *
 * <p>Not thread-safe: one instance per thread (a search holds the arrays until it returns).
 */
public final class ColumnarScanBuffers {
    byte[] dictionary = new byte[0];
    byte[] codes = new byte[0];
    byte[] numbers = new byte[0];
    int[] tokenStarts = new int[0];
    int[] tokenLengths = new int[0];

    /** Empty buffers; they grow on first use. */
    public ColumnarScanBuffers() {}

    static byte[] atLeast(byte[] array, int size) {
        return array.length >= size ? array : new byte[Math.max(size, array.length + (array.length >> 1))];
    }

    static int[] atLeast(int[] array, int size) {
        return array.length >= size ? array : new int[Math.max(size, array.length + (array.length >> 1))];
    }
}
