package io.logbloom.querier;

import java.util.Objects;

/**
 * One LogQL query as the API received it. Times in nanoseconds; for an instant query
 * {@code startNanos == endNanos} is the evaluation time and {@code stepNanos} is 0.
 *
 * @param tenant the tenant whose data is read
 * @param query the LogQL text
 * @param startNanos range start (inclusive)
 * @param endNanos range end
 * @param stepNanos metric step for range queries; 0 for instant queries
 * @param limit most log entries returned
 * @param forward true for oldest-first, false for Loki's default newest-first
 * @param instant whether this is an instant query ({@code /query})
 * @param bloomsRequested false when the client sent {@code X-Logbloom-Blooms: off}
 * @param cacheAllowed false when the client sent {@code Cache-Control: no-cache} (the results cache is bypassed)
 */
public record QueryRequest(String tenant, String query, long startNanos, long endNanos, long stepNanos, int limit,
        boolean forward, boolean instant, boolean bloomsRequested, boolean cacheAllowed) {
    public QueryRequest {
        Objects.requireNonNull(tenant, "tenant is null");
        Objects.requireNonNull(query, "query is null");
    }

    /** A request that may use the results cache. */
    public QueryRequest(String tenant, String query, long startNanos, long endNanos, long stepNanos, int limit,
            boolean forward, boolean instant, boolean bloomsRequested) {
        this(tenant, query, startNanos, endNanos, stepNanos, limit, forward, instant, bloomsRequested, true);
    }
}
