package io.logbloom.logql;

/**
 * Samples one query may still buffer for its range aggregations; over it the query fails with a
 * {@link QueryMemoryBudgetException} instead of running the process out of memory. Not thread-safe: one query,
 * one thread.
 */
final class SampleBudget {
    /**
     * What a new series weighs beside its samples, in samples: its buffer's two arrays of 16, its label set and map
     * entry (a grouping by a label with a value per row makes a series per row).
     */
    static final int SERIES_SAMPLES = 20;

    private final long max;
    private long used;

    SampleBudget(long max) {
        this.max = max;
    }

    /** The samples the query may still buffer. */
    long remaining() {
        return Math.max(0, max - used);
    }

    void take(long samples) {
        used += samples;
        if (used > max) {
            throw new QueryMemoryBudgetException(String.format(java.util.Locale.ROOT,
                    "the query needs more memory than its budget: over %d samples (%d MB) buffered for its range"
                            + " aggregations; narrow the time range, add line filters, or group by fewer labels",
                    max, max * Engine.BYTES_PER_SAMPLE >> 20));
        }
    }
}
