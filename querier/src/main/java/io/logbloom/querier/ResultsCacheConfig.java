package io.logbloom.querier;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the results cache of metric range queries (Loki's query-frontend results cache). Immutable.
 *
 * @param maxBytes weight budget of cached split results, in estimated heap bytes (0 disables the cache)
 * @param splitInterval length of one cached split; splits start at multiples of it (Loki's
 *     {@code split_queries_by_interval}, default 1h)
 * @param maxFreshness a split whose last step is younger than {@code now - maxFreshness} is never cached (Loki's
 *     {@code max_cache_freshness_per_query}, 10m in Loki's limits docs): rows still in flight to the ingester land
 *     in that window
 */
public record ResultsCacheConfig(long maxBytes, Duration splitInterval, Duration maxFreshness) {
    public ResultsCacheConfig {
        Objects.requireNonNull(splitInterval, "splitInterval is null");
        Objects.requireNonNull(maxFreshness, "maxFreshness is null");
        if (maxBytes < 0) {
            throw new IllegalArgumentException("results_cache_size must be >= 0: " + maxBytes);
        }
        if (splitInterval.isNegative() || splitInterval.isZero()) {
            throw new IllegalArgumentException("split_queries_by_interval must be positive: " + splitInterval);
        }
        if (maxFreshness.isNegative()) {
            throw new IllegalArgumentException("max_cache_freshness must be >= 0: " + maxFreshness);
        }
    }

    /** A 128 MiB cache of 1h splits, nothing younger than 10m cached (Loki's split interval and freshness). */
    public static ResultsCacheConfig defaults() {
        return new ResultsCacheConfig(128L << 20, Duration.ofHours(1), Duration.ofMinutes(10));
    }

    /** No results cache: every range query is evaluated whole. */
    public static ResultsCacheConfig disabled() {
        return new ResultsCacheConfig(0, Duration.ofHours(1), Duration.ofMinutes(10));
    }

    /** Whether results are cached at all. */
    public boolean enabled() {
        return maxBytes > 0;
    }
}
