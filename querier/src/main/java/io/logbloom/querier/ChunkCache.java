package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Encoded chunk bytes by object key, bounded by total bytes (Caffeine's W-TinyLFU with a weigher).
 * Chunk objects are immutable (the key embeds the checksum), so entries never go stale. A budget
 * of 0 disables caching. Thread-safe.
 */
final class ChunkCache {
    /** Per-entry overhead beyond the byte array, so tiny chunks still weigh something. */
    private static final int ENTRY_OVERHEAD_BYTES = 64;

    private final Cache<String, byte[]> cache;

    ChunkCache(long maxBytes) {
        this.cache = maxBytes == 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, byte[] value) -> saturate(value.length + key.length() + ENTRY_OVERHEAD_BYTES))
                .build();
    }

    /** The cached bytes or null. */
    byte[] get(String objectKey) {
        return cache == null ? null : cache.getIfPresent(objectKey);
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
