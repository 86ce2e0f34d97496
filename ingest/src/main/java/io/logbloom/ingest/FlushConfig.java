package io.logbloom.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * When chunks are closed and flushed and how failed flushes are retried (YAML section
 * {@code ingester}). Immutable.
 *
 * @param chunkIdlePeriod a chunk with no append for this long is flushed (Loki: 30m)
 * @param maxChunkAge a chunk whose first append is this old is flushed (Loki: 2h)
 * @param flushCheckPeriod how often the flush loop looks for chunks to flush (Loki: 30s; ours 10s)
 * @param minRetryBackoff first delay after a failed flush
 * @param maxRetryBackoff cap of the doubling retry delay
 */
public record FlushConfig(Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod,
        Duration minRetryBackoff, Duration maxRetryBackoff) {
    public FlushConfig {
        requirePositive("chunk_idle_period", chunkIdlePeriod);
        requirePositive("max_chunk_age", maxChunkAge);
        requirePositive("flush_check_period", flushCheckPeriod);
        requirePositive("min retry backoff", minRetryBackoff);
        requirePositive("max retry backoff", maxRetryBackoff);
        if (maxRetryBackoff.compareTo(minRetryBackoff) < 0) {
            throw new IllegalArgumentException(
                    "max retry backoff " + maxRetryBackoff + " is below min retry backoff " + minRetryBackoff);
        }
    }

    /** 30m idle, 2h max age, 10s check period, retries from 100ms doubling to 30s. */
    public static FlushConfig defaults() {
        return new FlushConfig(Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofSeconds(10),
                Duration.ofMillis(100), Duration.ofSeconds(30));
    }

    private static void requirePositive(String key, Duration value) {
        Objects.requireNonNull(value, key + " is null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive: " + value);
        }
    }
}
