package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
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
    /** Heap of one entry of the stream index (the map's slot and boxed index; the labels are the directory's). */
    private static final int STREAM_ENTRY_BYTES = 48;

    /**
     * A cached directory, its block table and its streams' indexes by labels: a query over 100 series finds each in
     * every object by one hash lookup instead of a binary search comparing label lists.
     */
    private record Entry(ColumnarDirectory directory, ColumnarBlockTable table, Map<Labels, Integer> streams) {
        static Entry of(String key, ColumnarDirectory directory, ToLongFunction<String> scopeHash) {
            Map<Labels, Integer> streams = new HashMap<>();
            for (int i = 0; i < directory.streams().size(); i++) {
                streams.put(directory.streams().get(i).labels(), i);
            }
            return new Entry(directory, ColumnarBlockTable.of(key, directory, scopeHash), Map.copyOf(streams));
        }
    }

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
                                + STREAM_ENTRY_BYTES * e.streams().size()
                                + key.length()))
                .build();
    }

    /** The directory of {@code objectKey}, read from the store on a miss. */
    ColumnarDirectory get(String objectKey) throws IOException {
        return entry(objectKey).directory();
    }

    /** Whether the directory of {@code objectKey} is cached. */
    boolean cached(String objectKey) {
        return cache.getIfPresent(objectKey) != null;
    }

    /** The index of the stream {@code labels} in {@code objectKey}'s directory, or -1 when it holds none. */
    int streamIndex(String objectKey, Labels labels) throws IOException {
        Integer index = entry(objectKey).streams().get(labels);
        return index == null ? -1 : index;
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
                    return Entry.of(key, directory, scopeHash);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
