package io.logbloom.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * The ingester's budgets (YAML section {@code ingester}): how much memory unflushed data may hold
 * before pushes are refused with 429, and how long the object store may keep rejecting flushes before
 * the ingester declares itself failed (503). Immutable.
 *
 * @param maxMemoryBytes bytes the ingester may hold for unflushed data (chunks, dedupe keys, blooms)
 * @param flushRetryBudget how long flushes may keep failing before the ingester stops accepting pushes
 */
public record BudgetConfig(long maxMemoryBytes, Duration flushRetryBudget) {
    /**
     * Default memory budget: 100 streams with a full 1.5 MB chunk and a 256 KB head block each fit,
     * and with the JVM's own overhead the default server stays well under 400 MB resident.
     */
    public static final long DEFAULT_MAX_MEMORY_BYTES = 256L << 20;
    /** Default retry budget: ten doubling retries capped at 30 s, long enough for an S3 hiccup or a MinIO restart. */
    public static final Duration DEFAULT_FLUSH_RETRY_BUDGET = Duration.ofMinutes(5);
    /** Below this a budget would refuse single pushes of ordinary size. */
    public static final long MIN_MAX_MEMORY_BYTES = 1L << 20;

    public BudgetConfig {
        Objects.requireNonNull(flushRetryBudget, "flushRetryBudget is null");
        if (maxMemoryBytes < MIN_MAX_MEMORY_BYTES) {
            throw new IllegalArgumentException("max_memory must be at least " + MIN_MAX_MEMORY_BYTES + " bytes: "
                    + maxMemoryBytes);
        }
        if (flushRetryBudget.isNegative() || flushRetryBudget.isZero()) {
            throw new IllegalArgumentException("flush_retry_budget must be positive: " + flushRetryBudget);
        }
    }

    /** 256 MB memory budget, 5 minutes retry budget. */
    public static BudgetConfig defaults() {
        return new BudgetConfig(DEFAULT_MAX_MEMORY_BYTES, DEFAULT_FLUSH_RETRY_BUDGET);
    }
}
