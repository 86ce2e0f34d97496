package io.logbloom.compactor;

import io.logbloom.chunks.TenantIds;
import java.util.Objects;

/**
 * One delete request as Loki keeps it: the lines of {@code query} (a log selector expression, with
 * optional line and label filters) with timestamps in [start, end] (milliseconds, both inclusive) are
 * deleted. Immutable.
 *
 * @param requestId the id Loki's API returns and cancels by (8 hex digits)
 * @param tenant the tenant the request belongs to
 * @param query the log selector expression
 * @param startMillis first deleted millisecond
 * @param endMillis last deleted millisecond
 * @param status Loki's status: {@code received} ({@link #STATUS_RECEIVED}) until the compactor has rewritten
 *               the data, then {@code processed} ({@link #STATUS_PROCESSED})
 * @param createdAtMillis when the request was received
 */
public record DeleteRequest(String requestId, String tenant, String query, long startMillis, long endMillis,
        String status, long createdAtMillis) {
    /** Loki's status of a request not processed yet (it still filters queries and may be cancelled). */
    public static final String STATUS_RECEIVED = "received";
    /** Loki's status of a request whose lines the compactor has physically removed. */
    public static final String STATUS_PROCESSED = "processed";

    public DeleteRequest {
        Objects.requireNonNull(requestId, "requestId is null");
        Objects.requireNonNull(tenant, "tenant is null");
        Objects.requireNonNull(query, "query is null");
        Objects.requireNonNull(status, "status is null");
        TenantIds.validate(tenant);
        if (!requestId.matches("[0-9a-f]{8}")) {
            throw new IllegalArgumentException("delete request id must be 8 hex digits: '" + requestId + "'");
        }
        if (endMillis < startMillis) {
            throw new IllegalArgumentException("delete request end " + endMillis + " is before start " + startMillis);
        }
    }

    /** Whether the request still applies as a query-time filter and may be cancelled. */
    public boolean received() {
        return STATUS_RECEIVED.equals(status);
    }

    /** This request with {@code newStatus}. */
    public DeleteRequest withStatus(String newStatus) {
        return new DeleteRequest(requestId, tenant, query, startMillis, endMillis, newStatus, createdAtMillis);
    }

    /** First deleted nanosecond. */
    public long startNanos() {
        return Math.multiplyExact(startMillis, 1_000_000L);
    }

    /** Last deleted nanosecond (the end millisecond is inclusive, so all of it). */
    public long endNanos() {
        return Math.multiplyExact(endMillis, 1_000_000L) + 999_999L;
    }
}
