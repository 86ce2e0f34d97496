package io.logbloom.chunks;

import com.github.luben.zstd.ZstdDecompressCtx;

/**
 * Scratch space one thread reuses for the literal searches of many blocks ({@link ColumnarBlock#rowsContaining(byte[],
 * ColumnarScanBuffers)}): a tokenized line column's dictionary, codes and numbers sections are inflated into these
 * arrays instead of into new arrays kept by the block, so a scan over more blocks than a cache holds allocates
 * almost nothing per block. The arrays grow to the largest section seen and stay that size: at most about ten bytes
 * per raw line byte of the largest block (the section bound), a few hundred KiB for the default 256 KiB blocks.
 * The zstd decompression context is reused too: creating one per section (what {@code Zstd.decompressByteArray}
 * does) allocates and initialises a native context of about 100 KiB each time; it is freed when these buffers become
 * unreachable.
 *
 * <p>The dictionary and numbers sections remember whose they are, so a block's {@link ColumnarBlock#numberFilter}
 * right after its search reads them without inflating them again.
 *
 * <p>Not thread-safe: one instance per thread (a search holds the arrays until it returns).
 */
public final class ColumnarScanBuffers {
    byte[] dictionary = new byte[0];
    byte[] codes = new byte[0];
    byte[] numbers = new byte[0];
    int[] tokenStarts = new int[0];
    int[] tokenLengths = new int[0];
    /** The sections whose inflated dictionary {@link #dictionary} holds ({@link #tokenCount} tokens), or null. */
    Object dictionaryOf;
    int tokenCount;
    /** The sections whose inflated numbers {@link #numbers} holds, or null. */
    Object numbersOf;
    /** Values of a numbers section being deduplicated, and the open-addressing table doing it. */
    long[] values = new long[0];
    long[] table = new long[0];
    private final ZstdDecompressCtx zstd;

    /** Empty buffers; they grow on first use. */
    public ColumnarScanBuffers() {
        ZstdDecompressCtx context = new ZstdDecompressCtx();
        this.zstd = context;
        ZstdInflater.CLEANER.register(this, context::close);
    }

    /** The reused decompression context (thread-confined as these buffers are). */
    ZstdDecompressCtx zstd() {
        return zstd;
    }

    static byte[] atLeast(byte[] array, int size) {
        return array.length >= size ? array : new byte[Math.max(size, array.length + (array.length >> 1))];
    }

    static int[] atLeast(int[] array, int size) {
        return array.length >= size ? array : new int[Math.max(size, array.length + (array.length >> 1))];
    }

    static long[] atLeast(long[] array, int size) {
        return array.length >= size ? array : new long[Math.max(size, array.length + (array.length >> 1))];
    }
}
