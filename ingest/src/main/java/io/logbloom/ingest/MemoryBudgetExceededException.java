package io.logbloom.ingest;

import java.io.IOException;

/**
 * A push refused because the ingester's unflushed data is over {@code ingester.max_memory}; nothing
 * of the push was stored, so the client should retry after {@link #retryAfterSeconds()} (HTTP 429).
 */
public final class MemoryBudgetExceededException extends IOException {
    private static final long serialVersionUID = 1L;
    private final long retryAfterSeconds;

    /** A refusal with its message and the suggested wait. */
    public MemoryBudgetExceededException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Seconds the client should wait before retrying (the {@code Retry-After} header). */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
