package io.logbloom.index;

import java.time.Duration;
import java.util.Objects;

/**
 * Configuration of the persisted index: the period length that splits each tenant's index into
 * files ({@code index/<tenant>/<periodNumber>/...}, period n covering [n·period, (n+1)·period) in
 * UTC nanoseconds since the epoch), the bound on the estimated heap of the cache of opened
 * index files, and how many reads of a remote store's index may be in flight at once.
 * Changing the period of an existing store changes which files a query lists, so keep it fixed.
 * Immutable and thread-safe.
 */
public record IndexConfig(Duration period, long fileCacheMaxBytes, int parallelReads) {
    /** Loki's TSDB index period: one table per day. */
    public static final Duration DEFAULT_PERIOD = Duration.ofHours(24);
    /** Room for about 35 opened period files of 10k series and 40k chunk refs each (7.2 MB of heap each). */
    public static final long DEFAULT_FILE_CACHE_MAX_BYTES = 256L << 20;
    /** Listings and file reads of a remote store in flight at once: the querier's default fetches. */
    public static final int DEFAULT_PARALLEL_READS = 8;

    public IndexConfig {
        Objects.requireNonNull(period, "period is null");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("index period must be positive: " + period);
        }
        if (period.compareTo(Duration.ofDays(3650)) > 0) {
            throw new IllegalArgumentException("index period must be at most 3650 days: " + period);
        }
        if (fileCacheMaxBytes < 0) {
            throw new IllegalArgumentException("index file cache size must not be negative: " + fileCacheMaxBytes);
        }
        if (parallelReads < 1) {
            throw new IllegalArgumentException("index parallel reads must be at least 1: " + parallelReads);
        }
    }

    /** {@code period} and {@code fileCacheMaxBytes}, with {@value #DEFAULT_PARALLEL_READS} parallel reads. */
    public IndexConfig(Duration period, long fileCacheMaxBytes) {
        this(period, fileCacheMaxBytes, DEFAULT_PARALLEL_READS);
    }

    /** The defaults: 24h periods, 256 MiB file cache, {@value #DEFAULT_PARALLEL_READS} parallel reads. */
    public static IndexConfig defaults() {
        return new IndexConfig(DEFAULT_PERIOD, DEFAULT_FILE_CACHE_MAX_BYTES);
    }

    /** This configuration with at most {@code n} reads of a remote store at once (1: one after another). */
    public IndexConfig withParallelReads(int n) {
        return new IndexConfig(period, fileCacheMaxBytes, n);
    }

    /** The period length in nanoseconds. */
    public long periodNanos() {
        return period.toNanos();
    }

    /** The number of the period containing {@code nanos} (floor division, so negative times work too). */
    public long periodNumber(long nanos) {
        return Math.floorDiv(nanos, periodNanos());
    }

    /** The first nanosecond of period {@code periodNumber}, saturating at the long range. */
    public long periodStartNanos(long periodNumber) {
        long p = periodNanos();
        if (periodNumber > Long.MAX_VALUE / p) {
            return Long.MAX_VALUE;
        }
        if (periodNumber < Long.MIN_VALUE / p) {
            return Long.MIN_VALUE;
        }
        return periodNumber * p;
    }
}
