package io.logbloom.querier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Series blooms by (tenant, fingerprint, period), bounded by their size. Unlike chunks, a series
 * bloom object is rewritten after each flush that touches the series, so a cached copy can be
 * older than the index. That is still safe: a bloom only gains tokens and covered chunks, so an
 * old copy never claims a chunk it has not seen (it just covers fewer chunks and skips less). The
 * querier calls {@link #reload} when a chunk is missing from the covered set, once per query and
 * key, to pick up newer coverage. Missing blooms are cached as empty, with the same reload rule.
 * Thread-safe.
 */
final class BloomCache {
    /** Weight of a cached "no bloom" answer. */
    private static final int EMPTY_WEIGHT = 64;

    /**
     * A bloom's identity. Equality and hash are written out: a record's generated ones go through method-handle
     * frames, which the interpreter runs slowly, and a query looks up a key per series and object before the JIT
     * has compiled its path.
     */
    record Key(String tenant, long fingerprint, long period) {
        Key {
            Objects.requireNonNull(tenant, "tenant is null");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && fingerprint == k.fingerprint && period == k.period && tenant.equals(k.tenant);
        }

        @Override
        public int hashCode() {
            return (31 * tenant.hashCode() + Long.hashCode(fingerprint)) * 31 + Long.hashCode(period);
        }
    }

    private final SeriesBloomSource source;
    private final Cache<Key, Optional<SeriesBloomView>> cache;
    private final QuerierMetrics metrics;

    /** A cache of up to {@code maxBytes} (0: none, every lookup reads the source) counting its hits and misses. */
    BloomCache(SeriesBloomSource source, long maxBytes, QuerierMetrics metrics) {
        this.source = Objects.requireNonNull(source, "source is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.cache = maxBytes == 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((Key k, Optional<SeriesBloomView> v) ->
                        ChunkCache.saturate(v.map(SeriesBloomView::sizeBytes).orElse((long) EMPTY_WEIGHT)))
                .build();
    }

    /** The bloom, from the cache when present. */
    Optional<SeriesBloomView> get(Key key) throws IOException {
        if (cache != null) {
            Optional<SeriesBloomView> cached = cache.getIfPresent(key);
            if (cached != null) {
                metrics.bloomCacheRequest(true);
                return cached;
            }
        }
        metrics.bloomCacheRequest(false);
        return reload(key);
    }

    /**
     * The cached answer for {@code key} (a bloom or "no bloom"), or null when {@link #get} would read the source; an
     * answer counts as a hit, null as nothing (the caller asks {@link #get} next).
     */
    Optional<SeriesBloomView> peek(Key key) {
        Optional<SeriesBloomView> cached = cache == null ? null : cache.getIfPresent(key);
        if (cached != null) {
            metrics.bloomCacheRequest(true);
        }
        return cached;
    }

    /** Caches {@code bloom} for {@code key}, replacing any cached copy (a bloom this process just wrote). */
    void put(Key key, SeriesBloomView bloom) {
        if (cache != null) {
            cache.put(key, Optional.of(bloom));
        }
    }

    /** The bloom read from the source now, replacing any cached copy. */
    Optional<SeriesBloomView> reload(Key key) throws IOException {
        Optional<SeriesBloomView> loaded = source.load(key.tenant(), key.fingerprint(), key.period());
        if (cache != null) {
            cache.put(key, loaded);
        }
        return loaded;
    }
}
