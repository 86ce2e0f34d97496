package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.logbloom.chunks.ColumnarNumberFilter;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link ColumnarNumberFilter}s of stored blocks, built by the first query that searched each block for a literal
 * with an inner number and kept in memory under a byte budget (Caffeine's W-TinyLFU with a weigher), so later such
 * queries rule blocks out without fetching them. About 1.25 bytes per distinct number of a block: some 7 MB for the
 * 3 M-line load-test set. Kept per object (one cache entry holds the filters of its blocks, re-weighed as they are
 * added), so a query over thousands of blocks does one cache lookup per object, not per block. Objects are
 * immutable, so a filter never goes stale; a forgotten one costs one more scan of its block. A budget of 0 keeps
 * nothing.
 *
 * <p>Thread-safe: the cache is, each object's filters are an atomic array, and filters are immutable. A weight read
 * while another thread adds a filter may miss that filter until the next add re-weighs the entry.
 */
final class BlockNumberFilters {
    /** Per-object overhead beyond its filters: key, entry, array. */
    private static final int OBJECT_OVERHEAD_BYTES = 128;
    /** Per-filter overhead beyond its words: the filter object and its array header. */
    private static final int FILTER_OVERHEAD_BYTES = 48;

    /** The filters of one object's blocks, by block index (null: not built). */
    static final class ObjectFilters {
        private final AtomicReferenceArray<ColumnarNumberFilter> blocks;

        private ObjectFilters(int blocks) {
            this.blocks = new AtomicReferenceArray<>(blocks);
        }

        /** Block {@code block}'s filter, or null when none is kept. */
        ColumnarNumberFilter get(int block) {
            return block < blocks.length() ? blocks.get(block) : null;
        }

        private long weight() {
            long weight = OBJECT_OVERHEAD_BYTES + 4L * blocks.length();
            for (int b = 0; b < blocks.length(); b++) {
                ColumnarNumberFilter filter = blocks.get(b);
                weight += filter == null ? 0 : filter.retainedBytes() + FILTER_OVERHEAD_BYTES;
            }
            return weight;
        }
    }

    private final Cache<String, ObjectFilters> cache;

    /** Filters weighing at most {@code maxBytes} in all. */
    BlockNumberFilters(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0: " + maxBytes);
        }
        this.cache = maxBytes == 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, ObjectFilters filters) -> ChunkCache.saturate(filters.weight() + 2L * key.length()))
                .build();
    }

    /** Whether filters are kept at all (a budget above 0). */
    boolean enabled() {
        return cache != null;
    }

    /** The filters kept for the blocks of {@code objectKey}, or null when none are. */
    ObjectFilters of(String objectKey) {
        return cache == null ? null : cache.getIfPresent(objectKey);
    }

    /** Keeps {@code filter} for block {@code block} of the {@code blocks}-block object {@code objectKey}. */
    void put(String objectKey, int blocks, int block, ColumnarNumberFilter filter) {
        if (cache == null) {
            return;
        }
        ObjectFilters filters = cache.get(objectKey, k -> new ObjectFilters(blocks));
        if (block >= filters.blocks.length()) {
            throw new IllegalArgumentException("block " + block + " of a " + filters.blocks.length()
                    + "-block object " + objectKey);
        }
        filters.blocks.set(block, filter);
        cache.put(objectKey, filters); // re-weighs the entry with the new filter
    }
}
