package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Directories of columnar objects by object key, bounded by their encoded size (Caffeine). A
 * directory costs one size lookup and one tail read of the object the first time; objects are
 * immutable, so entries never go stale. Like RocksDB keeping a table's index and filter blocks
 * once the table is opened, a needle query then reads nothing but the blocks it needs.
 * Thread-safe.
 */
final class ColumnarDirectoryCache {
    /** Decoded directories take several times their encoded bytes in heap (records per block and column). */
    private static final int HEAP_PER_ENCODED_BYTE = 8;

    private final ObjectStore store;
    private final Cache<String, ColumnarDirectory> cache;

    ColumnarDirectoryCache(ObjectStore store, long maxBytes) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.cache = Caffeine.newBuilder()
                .maximumWeight(Math.max(1, maxBytes))
                .weigher((String key, ColumnarDirectory d) ->
                        ChunkCache.saturate((long) d.directoryLength() * HEAP_PER_ENCODED_BYTE + key.length()))
                .build();
    }

    /** The directory of {@code objectKey}, read from the store on a miss. */
    ColumnarDirectory get(String objectKey) throws IOException {
        try {
            return cache.get(objectKey, key -> {
                try {
                    return new ColumnarObjectReader(RangeSource.ofObject(store, key)).directory();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
