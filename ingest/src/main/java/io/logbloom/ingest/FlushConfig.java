package io.logbloom.ingest;

import io.logbloom.chunks.ColumnarObjectWriter;
import java.time.Duration;
import java.util.Objects;

/**
 * When buffers are sealed into parts, parts merged and flushed to the store, and how failed flushes are retried (YAML section
 * {@code ingester}). Immutable.
 *
 * @param chunkIdlePeriod a chunk with no append for this long is flushed (Loki: 30m)
 * @param maxChunkAge a chunk whose first append is this old is flushed (Loki: 2h)
 * @param flushCheckPeriod how often the flush loop looks for chunks to flush (Loki: 30s; ours 10s)
 * @param minRetryBackoff first delay after a failed flush
 * @param maxRetryBackoff cap of the doubling retry delay
 * @param sealInterval how often write buffers become on-disk parts
 * @param mergeMinBytes parts of a tenant merged into one stored object once they reach this size
 * @param mergeConcurrency blocks a merge encodes at once: 1 encodes each on the merging thread as it is cut; more
 *     encode them on threads of their own while the merging thread reads the parts and writes the blocks encoded (the
 *     object is the same whatever the number)
 */
public record FlushConfig(Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod,
        Duration minRetryBackoff, Duration maxRetryBackoff, Duration sealInterval, long mergeMinBytes,
        int mergeConcurrency) {
    /** How often the write buffers are sealed into on-disk parts: rows are in heap about this long. */
    public static final Duration DEFAULT_SEAL_INTERVAL = Duration.ofSeconds(1);
    /**
     * A tenant's sealed parts are merged into one object once they hold this many bytes (or their
     * oldest is {@code max_chunk_age} old, or on flush): big objects compress better and keep the
     * object and index-ref counts low; the merge holds one object's bytes in heap. Parts are stored
     * uncompressed, so this is about the raw bytes of the rows: 128 MB of load-test rows make a stored
     * object of about 30 MB.
     */
    public static final long DEFAULT_MERGE_MIN_BYTES = 128L << 20;
    /** Most blocks a merge may encode at once: the writer's bound. */
    public static final int MAX_MERGE_CONCURRENCY = ColumnarObjectWriter.MAX_PARALLELISM;

    /**
     * Half the cores, at least one: encoding (tokenizing, zstd) is about three quarters of a merge's CPU, so on a
     * larger machine a merge on one thread capped a flush, and a sustained push, at one core's merge rate; half leaves
     * the other half to pushes and queries. On two cores it is one, the merge on its own thread: handing blocks to
     * other threads cost a third more CPU per merge there (each block's rows are read on a second core), for a flush
     * at most a third faster (see docs/measurements.md, "Merges encode blocks in parallel").
     */
    public static int defaultMergeConcurrency() {
        return Math.min(MAX_MERGE_CONCURRENCY, Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    }

    /** A config with the default seal interval and merge size. */
    public FlushConfig(Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod,
            Duration minRetryBackoff, Duration maxRetryBackoff) {
        this(chunkIdlePeriod, maxChunkAge, flushCheckPeriod, minRetryBackoff, maxRetryBackoff, DEFAULT_SEAL_INTERVAL,
                DEFAULT_MERGE_MIN_BYTES);
    }

    /** A config with the default merge concurrency. */
    public FlushConfig(Duration chunkIdlePeriod, Duration maxChunkAge, Duration flushCheckPeriod,
            Duration minRetryBackoff, Duration maxRetryBackoff, Duration sealInterval, long mergeMinBytes) {
        this(chunkIdlePeriod, maxChunkAge, flushCheckPeriod, minRetryBackoff, maxRetryBackoff, sealInterval,
                mergeMinBytes, defaultMergeConcurrency());
    }

    public FlushConfig {
        requirePositive("seal_interval", sealInterval);
        if (mergeMinBytes < 1) {
            throw new IllegalArgumentException("merge_min_bytes must be positive: " + mergeMinBytes);
        }
        if (mergeConcurrency < 1 || mergeConcurrency > MAX_MERGE_CONCURRENCY) {
            throw new IllegalArgumentException("merge_concurrency " + mergeConcurrency + " is outside [1, "
                    + MAX_MERGE_CONCURRENCY + "]");
        }
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

    /** A copy with another seal interval and merge size. */
    public FlushConfig withParts(Duration newSealInterval, long newMergeMinBytes) {
        return new FlushConfig(chunkIdlePeriod, maxChunkAge, flushCheckPeriod, minRetryBackoff, maxRetryBackoff,
                newSealInterval, newMergeMinBytes, mergeConcurrency);
    }


    private static void requirePositive(String key, Duration value) {
        Objects.requireNonNull(value, key + " is null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be positive: " + value);
        }
    }
}
