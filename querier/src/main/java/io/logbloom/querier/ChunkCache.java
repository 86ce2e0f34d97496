package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.logbloom.chunks.ColumnarBlock;

/**
 * Encoded chunk bytes by object key, and decoded columnar blocks (timestamps and lines, see
 * {@link ColumnarBlock#retainedBytesBound}) by their own keys, under one budget of total bytes (Caffeine's
 * W-TinyLFU with a weigher): a block searched by every dashboard refresh is inflated once, not once per query.
 * Chunk objects are immutable (the key embeds the checksum), so entries never go stale. A budget
 * of 0 disables caching. Thread-safe.
 */
final class ChunkCache {
    /** Per-entry overhead beyond the byte array, so tiny chunks still weigh something. */
    private static final int ENTRY_OVERHEAD_BYTES = 64;

    private final Cache<String, Object> cache;
    private final long maxBytes;

    ChunkCache(long maxBytes) {
        this.maxBytes = maxBytes;
        this.cache = maxBytes == 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, Object value) -> saturate(weight(value) + key.length() + ENTRY_OVERHEAD_BYTES))
                .build();
    }

    private static long weight(Object value) {
        return value instanceof byte[] bytes ? bytes.length : ((ColumnarBlock) value).retainedBytesBound();
    }

    /** The weight budget in bytes (0: caching disabled). */
    long maxBytes() {
        return maxBytes;
    }

    /** The cached bytes or null. */
    byte[] get(String objectKey) {
        return cache == null ? null : cache.getIfPresent(objectKey) instanceof byte[] bytes ? bytes : null;
    }

    /** The cached decoded block or null. */
    ColumnarBlock getBlock(String blockKey) {
        return cache == null ? null : cache.getIfPresent(blockKey) instanceof ColumnarBlock block ? block : null;
    }

    /** Remembers a decoded block (its key must differ from every object key). */
    void putBlock(String blockKey, ColumnarBlock block) {
        if (cache != null) {
            cache.put(blockKey, block);
        }
    }

    /** Remembers the bytes of a chunk. */
    void put(String objectKey, byte[] bytes) {
        if (cache != null) {
            cache.put(objectKey, bytes);
        }
    }

    /** Sum of the weights currently held (after pending evictions). */
    long weightedSize() {
        if (cache == null) {
            return 0;
        }
        cache.cleanUp();
        return cache.policy().eviction().orElseThrow().weightedSize().orElse(0);
    }

    static int saturate(long weight) {
        return (int) Math.min(Integer.MAX_VALUE, weight);
    }
}
