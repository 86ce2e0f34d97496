package io.logbloom.api;

/**
 * How the server's heap-resident buffers are sized from the JVM's maximum heap when the config says
 * {@code auto} (the default): each gets a fixed share of {@code -Xmx}, capped at the fixed size it had
 * before it followed the heap, so a large heap does not turn into large caches nobody asked for, and a
 * small heap (the shipped start command's {@code -Xmx512m}) is never promised more than it holds.
 *
 * <p>The shares of a 512 MB heap, and what is left: read caches 1/8 + 3/16 (64 MB chunk bytes, 32 MB each
 * for series blooms, metric results and opened index files), the ingester's unflushed data 1/4
 * ({@code ingester.max_memory: 0}, 128 MB, refused with 429 beyond it) and a query's samples 1/4 (LogQL's
 * own budget). The remaining 3/16 is room for request bodies being decoded, encoders of a seal or merge,
 * and the garbage between collections; G1 needs that headroom to collect without running back to back.
 * Stateless and thread-safe.
 */
final class HeapShares {
    /** The value of a size key that asks for the share of the heap instead of a fixed size. */
    static final long AUTO = -1;

    /** Chunk bytes (the columnar blocks a query reads): the largest cache, one eighth of the heap, at most 256 MB. */
    static final Share CHUNK_CACHE = new Share(8, 256L << 20);
    /** Series blooms: one sixteenth of the heap, at most 128 MB. */
    static final Share BLOOM_CACHE = new Share(16, 128L << 20);
    /** Split results of metric range queries: one sixteenth of the heap, at most 128 MB. */
    static final Share RESULTS_CACHE = new Share(16, 128L << 20);
    /** Opened per-period index files: one sixteenth of the heap, at most 256 MB (about 35 large period files). */
    static final Share INDEX_CACHE = new Share(16, 256L << 20);
    /** Below this a cache would not hold even one block's columns; an auto size never goes lower. */
    static final long MIN_AUTO_CACHE_BYTES = 1L << 20;

    private HeapShares() {}

    /**
     * One buffer's sizing rule.
     *
     * @param heapDivisor the buffer gets {@code maxHeap / heapDivisor}
     * @param capBytes but never more than this
     */
    record Share(int heapDivisor, long capBytes) {
        Share {
            if (heapDivisor < 1 || capBytes < MIN_AUTO_CACHE_BYTES) {
                throw new IllegalArgumentException("BUG: heap share 1/" + heapDivisor + " capped at " + capBytes);
            }
        }

        /** The bytes in force: {@code configured} unless it is {@link #AUTO}, else this share of {@code maxHeapBytes}. */
        long bytes(long configured, long maxHeapBytes) {
            if (configured != AUTO) {
                return configured;
            }
            return Math.max(MIN_AUTO_CACHE_BYTES, Math.min(capBytes, maxHeapBytes / heapDivisor));
        }
    }

    /** The maximum heap of this JVM ({@code -Xmx}, or the JVM's default of a quarter of the RAM). */
    static long maxHeapBytes() {
        return Runtime.getRuntime().maxMemory();
    }
}
