package io.logbloom.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * The ingester's budgets (YAML section {@code ingester}): how much memory unflushed data may hold
 * and how many bytes of sealed parts may wait on local disk for the object store before pushes are
 * refused with 429, and how long the object store may keep rejecting flushes before the ingester
 * declares itself failed (503). Immutable.
 *
 * @param maxMemoryBytes bytes the ingester may hold for unflushed data (chunks, dedupe keys, blooms)
 * @param flushRetryBudget how long flushes may keep failing before the ingester stops accepting pushes
 * @param maxUnmergedBytes bytes of sealed parts on local disk not yet merged into the object store
 *     above which pushes are refused (429), so an object store outage fills the disk only this far
 */
public record BudgetConfig(long maxMemoryBytes, Duration flushRetryBudget, long maxUnmergedBytes) {
    /**
     * Default memory budget: 100 streams with a full 1.5 MB chunk and a 256 KB head block each fit,
     * and with the JVM's own overhead the default server stays well under 400 MB resident.
     */
    public static final long DEFAULT_MAX_MEMORY_BYTES = 256L << 20;
    /** Default retry budget: ten doubling retries capped at 30 s, long enough for an S3 hiccup or a MinIO restart. */
    public static final Duration DEFAULT_FLUSH_RETRY_BUDGET = Duration.ofMinutes(5);
    /** Below this a budget would refuse single pushes of ordinary size. */
    public static final long MIN_MAX_MEMORY_BYTES = 1L << 20;
    /**
     * Default backlog bound: the default retry budget (5 minutes) of pushes at about 6 MB/s of sealed,
     * compressed parts, so an outage shorter than the retry budget is absorbed at a busy single node's
     * rate, while a small disk is not filled (parts compress several times below the pushed bytes).
     */
    public static final long DEFAULT_MAX_UNMERGED_BYTES = 2L << 30;
    /**
     * Below this the rows buffered within one seal interval at a modest push rate (they count towards
     * the bound too) would reach it, and pushes would be refused while the store is healthy.
     */
    public static final long MIN_MAX_UNMERGED_BYTES = 1L << 20;

    /** With the default backlog bound. */
    public BudgetConfig(long maxMemoryBytes, Duration flushRetryBudget) {
        this(maxMemoryBytes, flushRetryBudget, DEFAULT_MAX_UNMERGED_BYTES);
    }

    public BudgetConfig {
        Objects.requireNonNull(flushRetryBudget, "flushRetryBudget is null");
        if (maxMemoryBytes < MIN_MAX_MEMORY_BYTES) {
            throw new IllegalArgumentException("max_memory must be at least " + MIN_MAX_MEMORY_BYTES + " bytes: "
                    + maxMemoryBytes);
        }
        if (flushRetryBudget.isNegative() || flushRetryBudget.isZero()) {
            throw new IllegalArgumentException("flush_retry_budget must be positive: " + flushRetryBudget);
        }
        if (maxUnmergedBytes < MIN_MAX_UNMERGED_BYTES) {
            throw new IllegalArgumentException("max_unmerged_bytes must be at least " + MIN_MAX_UNMERGED_BYTES
                    + " bytes: " + maxUnmergedBytes);
        }
    }

    /** 256 MB memory budget, 5 minutes retry budget, 2 GB backlog of unmerged parts. */
    public static BudgetConfig defaults() {
        return new BudgetConfig(DEFAULT_MAX_MEMORY_BYTES, DEFAULT_FLUSH_RETRY_BUDGET, DEFAULT_MAX_UNMERGED_BYTES);
    }
}
