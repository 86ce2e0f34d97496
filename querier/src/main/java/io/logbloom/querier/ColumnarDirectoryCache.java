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
import java.util.function.ToLongFunction;

/**
 * Directories of columnar objects by object key, each with its {@link ColumnarBlockTable}, bounded by their
 * size (Caffeine). A directory costs one size lookup and one tail read of the object the first time; objects are
 * immutable, so entries never go stale. Like RocksDB keeping a table's index and filter blocks
 * once the table is opened, a needle query then reads nothing but the blocks it needs.
 * Thread-safe.
 */
final class ColumnarDirectoryCache {
    /** Decoded directories take several times their encoded bytes in heap (records per block and column). */
    private static final int HEAP_PER_ENCODED_BYTE = 8;

    /** A cached directory and its block table. */
    private record Entry(ColumnarDirectory directory, ColumnarBlockTable table) {}

    private final ObjectStore store;
    private final ToLongFunction<String> scopeHash;
    private final Cache<String, Entry> cache;

    /** A cache of at most about {@code maxBytes}, hashing block scopes with {@code scopeHash}. */
    ColumnarDirectoryCache(ObjectStore store, long maxBytes, ToLongFunction<String> scopeHash) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.scopeHash = Objects.requireNonNull(scopeHash, "scopeHash is null");
        this.cache = Caffeine.newBuilder()
                .maximumWeight(Math.max(1, maxBytes))
                .weigher((String key, Entry e) -> ChunkCache.saturate(
                        (long) e.directory().directoryLength() * HEAP_PER_ENCODED_BYTE + e.table().sizeBytes()
                                + key.length()))
                .build();
    }

    /** The directory of {@code objectKey}, read from the store on a miss. */
    ColumnarDirectory get(String objectKey) throws IOException {
        return entry(objectKey).directory();
    }

    /** The block table of {@code objectKey}, read from the store on a miss. */
    ColumnarBlockTable table(String objectKey) throws IOException {
        return entry(objectKey).table();
    }

    private Entry entry(String objectKey) throws IOException {
        try {
            return cache.get(objectKey, key -> {
                try {
                    ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofObject(store, key)).directory();
                    return new Entry(directory, ColumnarBlockTable.of(key, directory, scopeHash));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
