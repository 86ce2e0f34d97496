package io.logbloom.index;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * A size-bounded cache of opened index files keyed by object key. Index files are immutable, so an
 * entry never goes stale; a deleted file simply ages out. Each entry weighs its estimated heap
 * ({@link IndexFileReader#estimatedHeapBytes}), and Caffeine's W-TinyLFU policy picks the victim when
 * the total passes {@link IndexConfig#fileCacheMaxBytes}.
 * A file that fails to decode is not cached, so every read reports the corruption. Thread-safe;
 * concurrent opens of one key load it once.
 */
public final class IndexFileCache {
    private final ObjectStore store;
    private final Cache<String, IndexFileReader> files;

    /** A cache reading from {@code store}, bounded by {@code config.fileCacheMaxBytes()}. */
    public IndexFileCache(ObjectStore store, IndexConfig config) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.files = Caffeine.newBuilder()
                .maximumWeight(config.fileCacheMaxBytes())
                .weigher((String key, IndexFileReader file) -> (int) Math.min(Integer.MAX_VALUE, file.estimatedHeapBytes()))
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /** The opened file under {@code key}, read from the store on a miss. */
    public IndexFileReader open(String key) throws IOException {
        Objects.requireNonNull(key, "key is null");
        try {
            return files.get(key, k -> {
                try {
                    return IndexFileReader.open(k, store.get(k));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Whether the file under {@code key} is in memory (a later {@link #open} reads nothing, unless it is evicted). */
    public boolean isCached(String key) {
        return files.asMap().containsKey(key);
    }

    /**
     * Adds the file this process just wrote under {@code key} with the bytes it wrote, so the first lookup after a
     * flush or merge does not read it back from the store. A file that does not decode is left out (a lookup then
     * reads it and reports the damage).
     */
    public void admit(String key, byte[] bytes) {
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(bytes, "bytes is null");
        try {
            IndexFileReader file = IndexFileReader.open(key, bytes);
            files.asMap().putIfAbsent(key, file);
        } catch (IOException e) {
            // not cached: the next open reads the stored bytes and fails there
        }
    }

    /** Number of files opened from the store since creation (cache misses). */
    public long loadCount() {
        return files.stats().loadCount();
    }

    /** Number of lookups answered from memory. */
    public long hitCount() {
        return files.stats().hitCount();
    }

    /** Estimated heap bytes of the files currently cached. */
    public long cachedBytes() {
        return files.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }
}
