package io.logbloom.loadtest;

import java.time.Duration;
import java.util.Objects;

/**
 * One query the query phase sends, and what its answer must contain.
 *
 * <p>Immutable and thread-safe.
 *
 * @param operation report name of the query kind, for example {@code query_needle}
 * @param logql the LogQL expression
 * @param startNanos range start (Unix epoch ns)
 * @param endNanos range end (Unix epoch ns)
 * @param limit maximum lines for log queries
 * @param step resolution of metric queries, {@code null} for log queries
 * @param expected the needle the answer must contain exactly once, or {@code null} if unchecked
 * @param expectedCount for a metric query, what its values must sum to; {@code -1} if unchecked
 */
record PlannedQuery(String operation, String logql, long startNanos, long endNanos, int limit, Duration step,
        Needle expected, long expectedCount) {
    PlannedQuery {
        Objects.requireNonNull(operation, "operation is null");
        Objects.requireNonNull(logql, "logql is null");
        if (expectedCount >= 0 && step == null) {
            throw new IllegalArgumentException("an expected count needs a metric query (a step): " + logql);
        }
    }

    /** A query without an expected count. */
    PlannedQuery(String operation, String logql, long startNanos, long endNanos, int limit, Duration step, Needle expected) {
        this(operation, logql, startNanos, endNanos, limit, step, expected, -1);
    }

    /** Returns whether the answer is checked: a needle it must hold, or a count it must sum to. */
    boolean checked() {
        return expected != null || expectedCount >= 0;
    }
}
