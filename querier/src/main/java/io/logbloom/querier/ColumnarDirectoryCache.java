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

    /**
     * A cached directory, its block table and its streams' fingerprints in directory order (sorted unsigned, as
     * {@link ColumnarDirectory#STREAM_ORDER} sorts streams): a query over 100 series finds each in every object by a
     * binary search over longs, comparing label lists only when two streams of the object share a fingerprint.
     */
    record Entry(ColumnarDirectory directory, ColumnarBlockTable table, long[] fingerprints) {
        static Entry of(String key, ColumnarDirectory directory, ToLongFunction<String> scopeHash) {
            long[] fingerprints = new long[directory.streams().size()];
            for (int i = 0; i < fingerprints.length; i++) {
                fingerprints[i] = directory.streams().get(i).labels().fingerprint();
            }
            return new Entry(directory, ColumnarBlockTable.of(key, directory, scopeHash), fingerprints);
        }

        /**
         * The index of stream {@code labels}, or -1. A fingerprint held by one stream only is taken as that stream
         * without comparing labels: the index points a series at an object only when the flush wrote the series into
         * it, so another stream with its fingerprint (a collision) would be a second stream with that fingerprint.
         */
        int indexOf(Labels labels) {
            long fingerprint = labels.fingerprint();
            int low = 0;
            int high = fingerprints.length - 1;
            while (low <= high) {
                int mid = (low + high) >>> 1;
                int c = Long.compareUnsigned(fingerprints[mid], fingerprint);
                if (c < 0) {
                    low = mid + 1;
                } else if (c > 0) {
                    high = mid - 1;
                } else {
                    boolean shared = mid > 0 && fingerprints[mid - 1] == fingerprint
                            || mid + 1 < fingerprints.length && fingerprints[mid + 1] == fingerprint;
                    return shared ? directory.indexOf(labels) : mid;
                }
            }
            return -1;
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
                                + 8L * e.fingerprints().length
                                + key.length()))
                .build();
    }

    /** The directory of {@code objectKey}, read from the store on a miss. */
    ColumnarDirectory get(String objectKey) throws IOException {
        return entry(objectKey).directory();
    }

    /** The cached entry of {@code objectKey}, or null when it is not cached. */
    Entry cached(String objectKey) {
        return cache.getIfPresent(objectKey);
    }

    /** The block table of {@code objectKey}, read from the store on a miss. */
    ColumnarBlockTable table(String objectKey) throws IOException {
        return entry(objectKey).table();
    }

    /** The cached directory of {@code objectKey} with its block table, read from the store on a miss. */
    Entry entry(String objectKey) throws IOException {
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
