package io.logbloom.index;

import java.time.Duration;
import java.util.Objects;

/**
 * Configuration of the persisted index: the period length that splits each tenant's index into
 * files ({@code index/<tenant>/<periodNumber>/...}, period n covering [n·period, (n+1)·period) in
 * UTC nanoseconds since the epoch) and the bound on the estimated heap of the cache of opened
 * index files.
 * Changing the period of an existing store changes which files a query lists, so keep it fixed.
 * Immutable and thread-safe.
 */
public record IndexConfig(Duration period, long fileCacheMaxBytes) {
    /** Loki's TSDB index period: one table per day. */
    public static final Duration DEFAULT_PERIOD = Duration.ofHours(24);
    /** Room for about 35 opened period files of 10k series and 40k chunk refs each (7.2 MB of heap each). */
    public static final long DEFAULT_FILE_CACHE_MAX_BYTES = 256L << 20;

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
    }

    /** The defaults: 24h periods, 256 MiB file cache. */
    public static IndexConfig defaults() {
        return new IndexConfig(DEFAULT_PERIOD, DEFAULT_FILE_CACHE_MAX_BYTES);
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
