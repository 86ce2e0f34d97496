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
 */
record PlannedQuery(String operation, String logql, long startNanos, long endNanos, int limit, Duration step,
        Needle expected) {
    PlannedQuery {
        Objects.requireNonNull(operation, "operation is null");
        Objects.requireNonNull(logql, "logql is null");
    }
}
