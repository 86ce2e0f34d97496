package io.logbloom.querier;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the read path: bloom skipping on/off, fetch parallelism, cache budgets, and the
 * per-tenant query limits (Loki's {@code max_entries_limit_per_query}, {@code max_query_series},
 * {@code query_timeout}, {@code max_query_bytes_read}). Immutable.
 *
 * @param bloomsEnabled whether chunks may be skipped by their series bloom
 * @param maxConcurrentFetches size of the chunk fetch pool (bounded parallelism against the store)
 * @param chunkCacheBytes weight budget of the chunk cache, in encoded bytes (0 disables it)
 * @param bloomCacheBytes weight budget of the series-bloom cache, in serialized bytes (0 disables it)
 * @param maxEntriesLimitPerQuery largest {@code limit} a log query may ask for
 * @param maxQuerySeries most series a metric query may return
 * @param queryTimeout wall time after which a query fails
 * @param maxQueryBytesRead most encoded chunk bytes a query may fetch; 0 means unlimited
 */
public record QuerierConfig(
        boolean bloomsEnabled,
        int maxConcurrentFetches,
        long chunkCacheBytes,
        long bloomCacheBytes,
        int maxEntriesLimitPerQuery,
        int maxQuerySeries,
        Duration queryTimeout,
        long maxQueryBytesRead) {
    public QuerierConfig {
        Objects.requireNonNull(queryTimeout, "queryTimeout is null");
        if (maxConcurrentFetches < 1 || maxConcurrentFetches > 1024) {
            throw new IllegalArgumentException("max_concurrent_fetches must be in [1, 1024]: " + maxConcurrentFetches);
        }
        if (chunkCacheBytes < 0) {
            throw new IllegalArgumentException("chunk_cache_size must be >= 0: " + chunkCacheBytes);
        }
        if (bloomCacheBytes < 0) {
            throw new IllegalArgumentException("bloom_cache_size must be >= 0: " + bloomCacheBytes);
        }
        if (maxEntriesLimitPerQuery < 1) {
            throw new IllegalArgumentException("max_entries_limit_per_query must be >= 1: " + maxEntriesLimitPerQuery);
        }
        if (maxQuerySeries < 1) {
            throw new IllegalArgumentException("max_query_series must be >= 1: " + maxQuerySeries);
        }
        if (queryTimeout.isNegative() || queryTimeout.isZero()) {
            throw new IllegalArgumentException("query_timeout must be positive: " + queryTimeout);
        }
        if (maxQueryBytesRead < 0) {
            throw new IllegalArgumentException("max_query_bytes_read must be >= 0: " + maxQueryBytesRead);
        }
    }

    /** Loki's defaults: limit 5000 entries, 500 series, 1m timeout; 8 fetches, 256 MiB chunk and 128 MiB bloom caches. */
    public static QuerierConfig defaults() {
        return new QuerierConfig(true, 8, 256L << 20, 128L << 20, 5000, 500, Duration.ofMinutes(1), 0);
    }

    /** A copy with bloom skipping switched on or off. */
    public QuerierConfig withBloomsEnabled(boolean enabled) {
        return new QuerierConfig(enabled, maxConcurrentFetches, chunkCacheBytes, bloomCacheBytes,
                maxEntriesLimitPerQuery, maxQuerySeries, queryTimeout, maxQueryBytesRead);
    }
}
