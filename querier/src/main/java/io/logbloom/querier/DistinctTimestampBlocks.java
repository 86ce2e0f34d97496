package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.BitSet;

/**
 * Which blocks of stored columnar objects have strictly increasing timestamps, learned when a query first scans
 * a block. Such a block cannot hold two rows repeating a (timestamp, line) pair, so its directory row count is
 * exactly the number of rows the row-at-a-time path returns from it: a later count answers it without a fetch.
 * Objects are immutable, so a fact never goes stale. Bounded in objects (Caffeine, least recently used out);
 * a forgotten fact only costs one more scan.
 *
 * <p>Thread-safe: the cache is; each object's bit sets are guarded by their {@link Facts} monitor.
 */
final class DistinctTimestampBlocks {
    /** Objects remembered: a few hundred bytes each, so at most a few tens of MB. */
    static final int MAX_OBJECTS = 100_000;

    /** The facts known about one object's blocks. */
    private static final class Facts {
        final BitSet known = new BitSet();
        final BitSet distinct = new BitSet();
    }

    private final Cache<String, Facts> cache = Caffeine.newBuilder().maximumSize(MAX_OBJECTS).build();

    /** Whether block {@code block} of {@code objectKey} is known to have strictly increasing timestamps. */
    boolean isDistinct(String objectKey, int block) {
        Facts facts = cache.getIfPresent(objectKey);
        if (facts == null) {
            return false;
        }
        synchronized (facts) {
            return facts.distinct.get(block);
        }
    }

    /** Records what a scan of block {@code block} of {@code objectKey} found. */
    void record(String objectKey, int block, boolean distinct) {
        Facts facts = cache.get(objectKey, k -> new Facts());
        synchronized (facts) {
            facts.known.set(block);
            facts.distinct.set(block, distinct);
        }
    }
}
